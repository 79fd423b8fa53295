// Issue 22 browser flow: charging operations from the device page, against a charger driven by an
// independent OCPP 1.6J client (ocpp-rpc, strict mode). Root starts a session remotely (the
// charger answers Accepted and starts it), sees it on its connector, stops it (the charger stops
// with reason Remote), unlocks a connector and reserves one (shown Reserved with its reservation)
// then cancels it; an operator whose role holds the unlock key but not
// the remote-start key is offered unlock only, and unlocks. Screenshots in en-US and zh-CN go to
// CHARGEOPS_E2E_SHOTS when set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { RPCClient } from 'ocpp-rpc';
import { startServer, openBrowser, Api, signIn, eventually, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const SN = 'E2E-OPS-0001';
const OPERATOR = 'ops_unlocker';
const OPERATOR_PASSWORD = 'Ops#Unlock123';
const shots = process.env.CHARGEOPS_E2E_SHOTS;

let server;
let browser;
let root;
let charger;
let device;
const calls = [];
let transactionId = 0;

before(async () => {
  server = await startServer();
  browser = await openBrowser();
  root = await new Api(server.url).login(ROOT_NAME, ROOT_PASSWORD);
  await root.acceptPrivacy();
});

after(async () => {
  await charger?.close({ force: true }).catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

const now = () => new Date().toISOString();
const status = (connectorId, state) => charger.call('StatusNotification', { connectorId, errorCode: 'NoError', status: state, timestamp: now() });

async function shot(page, name) {
  if (shots) await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

/** Waits until cond() holds (polling the API), or fails after ms naming what the charger was called with. */
const until = (what, cond, ms = 15000) => eventually(cond, ms, what, () => `the charger was called: ${calls.join(', ') || 'never'}`);

async function openRemote(page, name, password) {
  await browser.context.clearCookies();
  await signIn(page, server.url, name, password, `/manage/device/detail/${device.id}/remote`);
  await page.getByTestId('ops-connectors').waitFor();
}

/** The result of the latest command of the charging-operations card. */
const result = (page, r) => page.locator(`[data-testid="ops-connectors"] [data-testid="command-result"][data-result="${r}"]`);

test('root starts, stops and unlocks from the device page; an operator with the unlock key only unlocks', async () => {
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Ops Co', code: 'OPSCO' });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: 'Ops Yard', code: 'OPS-01' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'OPS-AC-22', deviceType: 1 });
  device = await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: SN, name: 'Bay 7', modelId: model.id, siteId: site.id, maintenanceCycle: 90 });

  const role = await root.must('POST', '/api/auth/sys/role/add', { name: 'Unlockers' });
  await root.must('POST', '/api/auth/sys/role/auth/menu', {
    id: role.id, keys: ['auth_device', 'auth_device_list', 'auth_device_detail', 'auth_device_edit', 'auth_device_unlock', 'auth_my'],
  });
  await root.must('POST', '/api/auth/sys/role/auth/data', {
    id: role.id, customerAccess: 0, siteAccess: 0, webSshAccess: 0, webSshLevel: 5, cfgReadLevel: 5, cfgWriteLevel: 5,
    cfgDownloadLevel: 5, paramLevel: 5, docLevel: 5, attachLevel: 5, emailAlarm: false, userAccess: false,
  });
  const k = await root.key();
  await root.must('POST', '/api/auth/sys/user/add', {
    userName: OPERATOR, keyId: k.keyId, password: await k.fresh(OPERATOR_PASSWORD), roleId: role.id, email: `${OPERATOR}@example.com`,
  });
  await (await new Api(server.url).login(OPERATOR, OPERATOR_PASSWORD)).acceptPrivacy();

  charger = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: SN, protocols: ['ocpp1.6'], strictMode: true, reconnect: false });
  charger.handle('RemoteStartTransaction', ({ params }) => {
    calls.push(`RemoteStartTransaction ${params.connectorId ?? 0} ${params.idTag}`);
    setTimeout(async () => {
      await status(params.connectorId, 'Preparing');
      const tx = await charger.call('StartTransaction', { connectorId: params.connectorId, idTag: params.idTag, meterStart: 0, timestamp: now() });
      transactionId = tx.transactionId;
      await status(params.connectorId, 'Charging');
    }, 50);
    return { status: 'Accepted' };
  });
  charger.handle('RemoteStopTransaction', ({ params }) => {
    calls.push(`RemoteStopTransaction ${params.transactionId}`);
    setTimeout(async () => {
      await charger.call('StopTransaction', { transactionId: params.transactionId, meterStop: 1200, timestamp: now(), reason: 'Remote' });
      await status(1, 'Available');
    }, 50);
    return { status: 'Accepted' };
  });
  charger.handle('UnlockConnector', ({ params }) => {
    calls.push(`UnlockConnector ${params.connectorId}`);
    return { status: 'Unlocked' };
  });
  charger.handle('ReserveNow', ({ params }) => {
    calls.push(`ReserveNow ${params.connectorId} ${params.idTag} ${params.reservationId}`);
    setTimeout(() => status(params.connectorId, 'Reserved'), 50);
    return { status: 'Accepted' };
  });
  charger.handle('CancelReservation', ({ params }) => {
    calls.push(`CancelReservation ${params.reservationId}`);
    setTimeout(() => status(2, 'Available'), 50);
    return { status: 'Accepted' };
  });
  await charger.connect();
  assert.equal((await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'OPS-AC-22' })).status, 'Accepted');
  for (const c of [0, 1, 2]) await status(c, 'Available');

  // root: remote start on connector 1
  const page = await browser.page();
  await openRemote(page, ROOT_NAME, ROOT_PASSWORD);
  await page.getByTestId('ops-start-1').click();
  await page.getByTestId('ops-idtag').fill('CARD-0042');
  await page.getByTestId('ops-start-ok').click();
  await result(page, 2).waitFor({ timeout: 20000 });
  assert.deepEqual(calls, ['RemoteStartTransaction 1 CARD-0042']);
  // the session shows on its connector, with its stop action
  const stop = page.getByTestId('ops-stop-1');
  await stop.waitFor({ timeout: 15000 });
  await page.locator('[data-testid="ops-connectors"] tr', { hasText: 'CARD-0042' }).getByTestId('ops-connector-status').filter({ hasText: 'Charging' }).waitFor({ timeout: 15000 });
  await shot(page, 'ops-remote-en');

  // stop it: the charger gets the session's id and stops with reason Remote
  await stop.click();
  await page.locator('.ant-modal-confirm', { hasText: `Stop the session of CARD-0042 on connector 1 of ${SN}?` }).waitFor();
  await page.getByTestId('confirm-ok').click();
  await until('the charger stopped the session', async () => calls.at(-1) === `RemoteStopTransaction ${transactionId}`);
  await result(page, 2).waitFor();
  await page.getByTestId('ops-start-1').waitFor({ timeout: 15000 });

  // unlock connector 2
  await page.getByTestId('ops-unlock-2').click();
  await page.getByTestId('confirm-ok').click();
  await until('the charger unlocked', async () => calls.at(-1) === 'UnlockConnector 2');
  await result(page, 2).waitFor();

  // reserve connector 2: the connector shows Reserved with its reservation; then cancel it
  await page.getByTestId('ops-reserve-2').click();
  await page.getByTestId('ops-reserve-idtag').fill('CARD-0099');
  await page.getByTestId('ops-reserve-ok').click();
  await until('the charger got the reservation', async () => calls.at(-1)?.startsWith('ReserveNow 2 CARD-0099 '));
  const reservationId = Number(calls.at(-1).split(' ')[3]);
  const reserved = page.locator('[data-testid="ops-connectors"] tr', { hasText: 'CARD-0099' });
  await reserved.getByTestId('ops-connector-status').filter({ hasText: 'Reserved' }).waitFor({ timeout: 15000 });
  await page.locator('[data-testid="ops-reservations"] [data-testid="ops-reservation-status"]', { hasText: 'Active' }).waitFor();
  await shot(page, 'ops-reserved-en');
  await page.getByTestId('ops-cancel-2').click();
  await page.getByTestId('confirm-ok').click();
  await until('the charger cancelled', async () => calls.at(-1) === `CancelReservation ${reservationId}`);
  await page.locator('[data-testid="ops-reservations"] [data-testid="ops-reservation-status"]', { hasText: 'Cancelled' }).waitFor({ timeout: 15000 });

  const history = await root.must('POST', '/api/auth/sys/dev/control/list', { deviceId: device.id, page: 1, pageSize: 10 });
  assert.deepEqual(history.list.map((c) => [c.controlType, c.result]), [[18, 2], [17, 2], [14, 2], [13, 2], [12, 2]]);

  // the operator: unlock only (no remote-start key), and it works
  await openRemote(page, OPERATOR, OPERATOR_PASSWORD);
  await page.getByTestId('ops-unlock-1').waitFor();
  assert.equal(await page.getByTestId('ops-start-1').count(), 0, 'remote start is not offered without auth_device_remoteStart');
  assert.equal(await page.getByTestId('ops-start-any').count(), 0);
  await page.getByTestId('ops-unlock-1').click();
  await page.getByTestId('confirm-ok').click();
  await until('the operator unlocked', async () => calls.at(-1) === 'UnlockConnector 1');
  await result(page, 2).waitFor();
  await shot(page, 'ops-remote-operator-en');
  const rows = await root.must('POST', '/api/auth/sys/dev/control/list', { deviceId: device.id, page: 1, pageSize: 1 });
  assert.equal(rows.list[0].userName, OPERATOR);
});

test('the charging operations read in Chinese', async () => {
  const zh = await openBrowser('zh-CN');
  try {
    await zh.context.addInitScript(() => localStorage.setItem('chargeops_locale', 'zh-CN'));
    const page = await zh.page();
    await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD, `/manage/device/detail/${device.id}/remote`);
    const card = page.getByTestId('ops-connectors');
    await card.waitFor();
    await card.getByText('充电操作').waitFor();
    await page.getByTestId('ops-start-2').click();
    await page.locator('.ant-modal', { hasText: `在 ${SN} 上远程启动充电` }).waitFor();
    await shot(page, 'ops-start-zh');
    await page.keyboard.press('Escape');
    await shot(page, 'ops-remote-zh');
  } finally {
    await zh.close();
  }
});
