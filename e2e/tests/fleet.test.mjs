// Issue 4 browser flow: a charger driven by an independent OCPP 1.6J client (ocpp-rpc, strict
// mode) goes Working → Faulted on the device list without a reload (server push), and an
// operator whose control level allows Soft reboot (but not Hard reboot) reboots it from Remote
// Operations and sees the charger's answer as the command's result.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { RPCClient } from 'ocpp-rpc';
import { startServer, openBrowser, Api, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const SN = 'E2E-CP-0001';
const OPERATOR = 'fleet_ops';
const OPERATOR_PASSWORD = 'Fleet#Ops123';

let server;
let browser;
let root;
let charger;
const resets = [];

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

async function status(connectorId, state, errorCode = 'NoError') {
  await charger.call('StatusNotification', { connectorId, errorCode, status: state, timestamp: now() });
}

test('a charger goes Working → Faulted live; an operator soft-reboots it and sees the result', async () => {
  // organisation through the API
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Fleet Co', code: 'FLEETCO' });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: 'Fleet Yard', code: 'FLEET-01' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'FLEET-AC-22', deviceType: 1 });
  await root.must('POST', '/api/auth/sys/dev/model/item/add', {
    modelId: model.id, kind: 'control', controlName: 'Soft reboot', controlTypeCode: 1, controlLevel: 3,
  });
  await root.must('POST', '/api/auth/sys/dev/model/item/add', {
    modelId: model.id, kind: 'control', controlName: 'Hard reboot', controlTypeCode: 2, controlLevel: 1,
  });
  const device = await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: SN, name: 'Bay 1', modelId: model.id, siteId: site.id, maintenanceCycle: 90 });

  // an operator at control level 3: may use Soft reboot (3), not Hard reboot (1)
  const role = await root.must('POST', '/api/auth/sys/role/add', { name: 'Fleet operators' });
  await root.must('POST', '/api/auth/sys/role/auth/menu', {
    id: role.id, keys: ['auth_device', 'auth_device_list', 'auth_device_detail', 'auth_device_edit', 'auth_my'],
  });
  await root.must('POST', '/api/auth/sys/role/auth/data', {
    id: role.id, customerAccess: 0, siteAccess: 0, webSshAccess: 0, webSshLevel: 5, cfgReadLevel: 3, cfgWriteLevel: 3,
    cfgDownloadLevel: 5, paramLevel: 3, docLevel: 5, attachLevel: 5, emailAlarm: false, userAccess: false,
  });
  const k = await root.key();
  await root.must('POST', '/api/auth/sys/user/add', {
    userName: OPERATOR, keyId: k.keyId, password: await k.fresh(OPERATOR_PASSWORD), roleId: role.id, email: `${OPERATOR}@example.com`,
  });
  await (await new Api(server.url).login(OPERATOR, OPERATOR_PASSWORD)).acceptPrivacy();

  // the charger: an OCPP 1.6J client chargeops did not write
  charger = new RPCClient({
    endpoint: `${server.url.replace('http', 'ws')}/ocpp`,
    identity: SN,
    protocols: ['ocpp1.6'],
    strictMode: true,
    reconnect: false,
  });
  charger.handle('Reset', ({ params }) => {
    resets.push(params.type);
    return { status: 'Accepted' };
  });
  await charger.connect();
  const boot = await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'FLEET-AC-22', firmwareVersion: '1.0.0' });
  assert.equal(boot.status, 'Accepted');
  await status(0, 'Available');
  await status(1, 'Charging');

  // the operator's device list shows it Working
  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  await signIn(page, server.url, OPERATOR, OPERATOR_PASSWORD, '/manage/device/list');
  const row = page.locator('[data-testid="device-list"] tr', { hasText: SN });
  await row.getByTestId('device-status').filter({ hasText: 'Working' }).waitFor();
  await page.locator('[data-testid="live-status"][data-live="1"]').waitFor();

  // a fault arrives: the badge turns Faulted without a reload (well within the 30 s poll)
  await page.evaluate(() => {
    window.__sameDocument = true;
  });
  const faultedAt = Date.now();
  await status(1, 'Faulted', 'GroundFailure');
  await row.getByTestId('device-status').filter({ hasText: 'Faulted' }).waitFor({ timeout: 10000 });
  assert.ok(Date.now() - faultedAt < 10000);
  assert.equal(await page.evaluate(() => window.__sameDocument), true, 'the page was not reloaded');

  // Remote Operations: only the operations the level allows
  await row.getByRole('link', { name: SN }).click();
  await page.waitForURL(`**/manage/device/detail/${device.id}`);
  await page.getByTestId('device-detail').getByTestId('device-status').filter({ hasText: 'Faulted' }).first().waitFor();
  await page.getByRole('tab', { name: 'Remote Operations' }).click();
  await page.waitForURL(`**/manage/device/detail/${device.id}/remote`);
  const soft = page.getByTestId('control-1');
  await soft.waitFor();
  assert.equal(await soft.textContent(), 'Soft reboot');
  assert.equal(await page.getByTestId('control-2').count(), 0, 'Hard reboot (level 1) is not offered at level 3');

  await soft.click();
  await page.locator('.ant-modal-confirm', { hasText: `Soft reboot on ${SN}?` }).waitFor();
  await page.getByTestId('confirm-ok').click();
  const result = page.locator('[data-testid="command-results"] [data-testid="command-result"]');
  await page.locator('[data-testid="command-results"] [data-testid="command-result"][data-result="2"]').waitFor({ timeout: 20000 });
  assert.match(await result.first().textContent(), /Success/);
  assert.deepEqual(resets, ['Soft']);

  // the command is in the device's history, as the API says
  const history = await root.must('POST', '/api/auth/sys/dev/control/list', { deviceId: device.id, page: 1, pageSize: 10 });
  assert.equal(history.list[0].controlType, 1);
  assert.equal(history.list[0].result, 2);
  assert.equal(history.list[0].userName, OPERATOR);
  await page.close();
});
