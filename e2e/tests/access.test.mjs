// Issue 7 browser flows, access control that holds: a customer-A user's action log shows only
// the rows of customer A's users (no customer-B user, no root or platform rows), and a user at
// config write level 2 sees a level-1 config item read-only, a level-3 one editable, and the
// server refuses a ChangeConfiguration of the level-1 key forged from the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { RPCClient } from 'ocpp-rpc';
import { startServer, openBrowser, Api, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

let server;
let browser;
let root;
let charger;

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

const NO_DATA = { webSshAccess: 0, webSshLevel: 5, cfgReadLevel: 5, cfgWriteLevel: 5, cfgDownloadLevel: 5, paramLevel: 5, docLevel: 5, attachLevel: 5, emailAlarm: false, userAccess: false };

/** A role (owned by customerId, 0 = platform) with keys and data settings, and a signed-in user of it. */
async function userWith({ name, password, customerId = 0, keys, data }) {
  const role = await root.must('POST', '/api/auth/sys/role/add', { name: `role of ${name}`, customerId });
  await root.must('POST', '/api/auth/sys/role/auth/menu', { id: role.id, keys });
  await root.must('POST', '/api/auth/sys/role/auth/data', { id: role.id, customerAccess: 0, siteAccess: 0, ...NO_DATA, ...data });
  const k = await root.key();
  await root.must('POST', '/api/auth/sys/user/add', {
    userName: name, keyId: k.keyId, password: await k.fresh(password), roleId: role.id, customerId, email: `${name}@example.com`,
  });
  const api = await new Api(server.url).login(name, password);
  await api.acceptPrivacy();
  return api;
}

/** A new page signed in as name, on its landing page or on `to`. */
async function signedIn(name, password, to) {
  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  await signIn(page, server.url, name, password, to);
  await page.waitForURL('**/manage/**');
  await page.getByTestId('sidebar').waitFor();
  return page;
}

test("a customer-A user's action log shows only A's rows", async () => {
  const a = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Alpha Logs Co', code: 'ALPHALOG' });
  const b = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Bravo Logs Co', code: 'BRAVOLOG' });
  const siteKeys = ['auth_site', 'auth_site_list', 'auth_site_add', 'auth_my'];
  const alpha = await userWith({
    name: 'alpha_auditor', password: 'Alpha#Audit123', customerId: a.id,
    keys: ['auth_system', 'auth_logs', 'auth_logs_action', ...siteKeys], data: { customerAccess: 1 },
  });
  const bravo = await userWith({ name: 'bravo_ops', password: 'Bravo#Ops1234', customerId: b.id, keys: siteKeys, data: { customerAccess: 1 } });

  // each changes something, so each has operation rows; root's rows are all of the above
  await alpha.must('POST', '/api/auth/sys/site/add', { customerId: a.id, name: 'Alpha Audit Yard', code: 'ALPHA-AUD-01' });
  await bravo.must('POST', '/api/auth/sys/site/add', { customerId: b.id, name: 'Bravo Hidden Yard', code: 'BRAVO-HID-01' });
  await root.must('POST', '/api/auth/sys/site/add', { customerId: b.id, name: 'Root Made Yard', code: 'ROOT-MADE-01' });

  // the API: every row A sees is A's
  const rows = await alpha.must('POST', '/api/auth/sys/logs/action/list', { page: 1, pageSize: 100 });
  assert.ok(rows.list.length > 0, 'A sees its own rows');
  assert.deepEqual([...new Set(rows.list.map((r) => r.userName))], ['alpha_auditor']);
  assert.ok(rows.list.some((r) => r.action.includes('/api/auth/sys/site/add')), "A's site add is listed");

  // the screen: the same, and nothing of B or root anywhere on the page
  const page = await signedIn('alpha_auditor', 'Alpha#Audit123', '/manage/system/logs/action?pageSize=100');
  const table = page.getByTestId('action-logs').locator('.ant-table-tbody');
  await table.locator('tr.ant-table-row', { hasText: 'ALPHA-AUD-01' }).first().waitFor();
  const users = await table.locator('tr.ant-table-row > td:first-child').allTextContents();
  assert.ok(users.length > 0);
  assert.deepEqual([...new Set(users)], ['alpha_auditor']);
  const body = await page.locator('body').textContent();
  for (const other of ['bravo_ops', ROOT_NAME, 'Bravo Hidden Yard', 'BRAVO-HID-01', 'ROOT-MADE-01']) {
    assert.ok(!body.includes(other), `${other} must not show in A's action log`);
  }

  // the sign-in view too: only A's logins
  await page.goto(`${server.url}/manage/system/logs/action/login?pageSize=100`);
  await table.locator('tr.ant-table-row').first().waitFor();
  assert.deepEqual([...new Set(await table.locator('tr.ant-table-row > td:first-child').allTextContents())], ['alpha_auditor']);
  await page.close();
});

test('config write level 2: the level-1 item is read-only, the level-3 one editable, a forged change is refused', async () => {
  const SN = 'E2E-CFG-0001';
  const LOW = 'HeartbeatInterval'; // write level 1: above the user
  const HIGH = 'MeterValueSampleInterval'; // write level 3: within reach
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Config Co', code: 'CFGCO' });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: 'Config Yard', code: 'CFG-01' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'CFG-AC-7', deviceType: 1 });
  for (const [key, name, writeLevel] of [[LOW, 'Heartbeat interval', 1], [HIGH, 'Meter sample interval', 3]]) {
    await root.must('POST', '/api/auth/sys/dev/model/item/add', {
      modelId: model.id, kind: 'config', configGroup: 'Timing', configItem: name, protocolKey: key,
      readLevel: 2, writeLevel, dataType: 'int', dataRange: '0~86400',
    });
  }
  const device = await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: SN, name: 'Cfg bay', modelId: model.id, siteId: site.id, maintenanceCycle: 90 });
  await userWith({
    name: 'fleet_cfg', password: 'Fleet#Cfg1234',
    keys: ['auth_device', 'auth_device_list', 'auth_device_detail', 'auth_device_edit', 'auth_my'],
    data: { cfgReadLevel: 2, cfgWriteLevel: 2, paramLevel: 0 },
  });

  // the charger: answers GetConfiguration, accepts ChangeConfiguration (and remembers it)
  const UNLISTED = 'ConnectionTimeOut'; // not described by the model: config write level 0 only
  const config = { [LOW]: '300', [HIGH]: '60', [UNLISTED]: '120' };
  const changes = [];
  charger = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: SN, protocols: ['ocpp1.6'], strictMode: true, reconnect: false });
  charger.handle('GetConfiguration', () => ({
    configurationKey: Object.entries(config).map(([key, value]) => ({ key, readonly: false, value })),
  }));
  charger.handle('ChangeConfiguration', ({ params }) => {
    changes.push(params.key);
    config[params.key] = params.value;
    return { status: 'Accepted' };
  });
  await charger.connect();
  const boot = await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'CFG-AC-7', firmwareVersion: '1.0.0' });
  assert.equal(boot.status, 'Accepted');
  await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available', timestamp: new Date().toISOString() });

  // root reads the configuration once, so the device's values are known
  const sent = await root.must('POST', '/api/auth/sys/dev/control/send', { deviceIds: [device.id], controlType: 9, params: {} });
  const commandId = sent.commands[0].id;
  for (let i = 0; ; i++) {
    const c = await root.must('GET', `/api/auth/sys/dev/control/detail?id=${commandId}`);
    if (c.result === 2) break;
    assert.ok(c.result === 1 && i < 100, `GetConfiguration ended with ${c.result} ${c.message}`);
    await new Promise((r) => setTimeout(r, 100));
  }

  // the screen: level 1 and the unlisted key read-only (no edit, no selection), level 3 editable
  const page = await signedIn('fleet_cfg', 'Fleet#Cfg1234', `/manage/device/detail/${device.id}/remote`);
  const table = page.getByTestId('config-table');
  const low = table.locator(`tr[data-row-key="${LOW}"]`);
  const high = table.locator(`tr[data-row-key="${HIGH}"]`);
  await low.waitFor();
  await table.locator(`tr[data-row-key="${UNLISTED}"]`).waitFor();
  await page.getByTestId(`config-edit-${HIGH}`).waitFor();
  assert.equal(await page.getByTestId(`config-edit-${LOW}`).count(), 0, 'no edit control on the level-1 item');
  assert.equal(await page.getByTestId(`config-edit-${UNLISTED}`).count(), 0, 'no edit control on a key the model does not describe');
  assert.equal(await low.locator('input[type=checkbox]').isDisabled(), true, 'the level-1 item cannot be selected');
  assert.equal(await high.locator('input[type=checkbox]').isDisabled(), false);

  // forged from the page, as the console sends it (cookie session + CSRF header)
  const send = (key, value) =>
    page.evaluate(
      async ({ deviceId, key, value }) => {
        const csrf = decodeURIComponent(document.cookie.split('; ').find((c) => c.startsWith('chargeops_csrf='))?.slice('chargeops_csrf='.length) ?? '');
        const r = await fetch('/api/auth/sys/dev/control/send', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
          body: JSON.stringify({ deviceIds: [deviceId], controlType: 11, params: { items: [{ key, value }] } }),
        });
        return r.json();
      },
      { deviceId: device.id, key, value },
    );
  const forged = await send(LOW, '45');
  assert.ok(forged.code === 20013 || forged.code === 10001, `forged level-1 change answered ${forged.code} ${forged.message}`);
  // the same call for the level-3 key goes through: the refusal above is the level's
  const allowed = await send(HIGH, '30');
  assert.equal(allowed.code, 0, `level-3 change answered ${allowed.code} ${allowed.message}`);
  assert.equal(allowed.data.commands[0].code ?? 0, 0);
  for (const end = Date.now() + 20000; !changes.includes(HIGH) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(changes, [HIGH], 'the charger got the level-3 change only');
  await page.close();
});
