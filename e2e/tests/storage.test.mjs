// Issue 26 end to end (docs/mqtt.md, docs/agent.md): a storage unit behind a site agent, as a
// real one reaches chargeops. `chargeops sim --storage` runs a simulated SunSpec battery on a
// loopback Modbus port and the edge agent that reads it and publishes to the server's embedded
// MQTT broker with the unit's key, which the console made (Device key, shown once). In Chromium,
// en-US then zh-CN: the device's Storage tab as root (state of charge, energy flow, cells, a
// mode command answered by the battery and its new mode read back), the device list filtered to
// storage devices, a new storage model given the storage template's items from its page; as a
// customer's staff with the storage key (a power setpoint) and as one
// without it (values but no commands; the server refuses the command too); a user of another
// customer does not find the unit. Screenshots go to CHARGEOPS_E2E_SHOTS when set.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, openBrowser, Api, signIn, eventually, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const SN = 'E2E-ESS-0001';
const shots = process.env.CHARGEOPS_E2E_SHOTS;
const binary = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'chargeops');
const LEVELS = { webSshAccess: 0, webSshLevel: 5, cfgReadLevel: 2, cfgWriteLevel: 2, cfgDownloadLevel: 2, paramLevel: 2, docLevel: 5, attachLevel: 5, emailAlarm: false, userAccess: false };
const VIEW = ['auth_home', 'auth_my', 'auth_device', 'auth_device_list', 'auth_device_detail', 'auth_device_info'];

let server;
let root;
let agent;
let fixture;

async function userOf(customerId, name, keys) {
  const role = await root.must('POST', '/api/auth/sys/role/add', { name: `role of ${name}`, customerId });
  await root.must('POST', '/api/auth/sys/role/auth/menu', { id: role.id, keys });
  await root.must('POST', '/api/auth/sys/role/auth/data', { id: role.id, customerAccess: 1, siteAccess: 0, ...LEVELS });
  const k = await root.key();
  await root.must('POST', '/api/auth/sys/user/add', {
    userName: name, keyId: k.keyId, password: await k.fresh('Storage#Pass123'), roleId: role.id, customerId, email: `${name}@example.com`,
  });
  const api = await new Api(server.url).login(name, 'Storage#Pass123');
  await api.acceptPrivacy();
  return api;
}

before(async () => {
  server = await startServer();
  root = await new Api(server.url).login(ROOT_NAME, ROOT_PASSWORD);
  await root.acceptPrivacy();
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Battery Co', code: 'BATTCO' });
  const other = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Other Co', code: 'OTHERCO' });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: 'Battery Yard', code: 'BATT-01' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'BESS-E2E', deviceType: 4 });
  // the storage template's items (the configuration keys and controls 9, 11, 29-32)
  const { added } = await root.must('POST', '/api/auth/sys/dev/model/item/storage', { modelId: model.id });
  assert.equal(added, 11, 'the storage template adds its 5 parameters and 6 controls');
  const device = await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: SN, name: 'Yard battery', modelId: model.id, siteId: site.id, maintenanceCycle: 365 });
  const { authKey } = await root.must('POST', '/api/auth/sys/dev/basic/key', { id: device.id });
  assert.equal(authKey.length, 24, 'the console makes a 24-character key');
  agent = spawn(binary, ['sim', '--storage', `mqtt://127.0.0.1:${server.mqttPort}`, '--devices', '1', '--prefix', 'E2E-ESS-', '--key', authKey, '--meter-interval', '1s'],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  agent.stdout.on('data', (d) => (out += d));
  agent.stderr.on('data', (d) => (out += d));
  await eventually(async () => (await root.must('GET', `/api/auth/sys/dev/basic/detail?id=${device.id}`)).status !== 0, 20000, 'the unit online', () => out);
  const staff = await userOf(customer.id, 'batt_staff', [...VIEW, 'auth_device_edit', 'auth_device_storage']);
  const viewer = await userOf(customer.id, 'batt_viewer', [...VIEW, 'auth_device_edit']);
  const stranger = await userOf(other.id, 'other_staff', [...VIEW, 'auth_device_edit', 'auth_device_storage']);
  fixture = { device, staff, viewer, stranger };
});

after(async () => {
  agent?.kill('SIGTERM');
  await server?.stop();
});

/** A page signed in as name in locale, on the unit's Storage tab with its values shown. */
async function storagePage(browser, name, password) {
  const page = await browser.page();
  await signIn(page, server.url, name, password, `/manage/device/detail/${fixture.device.id}`);
  await page.getByTestId('device-storage').waitFor();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="storage-soc"]')?.getAttribute('data-value')) > 0);
  return page;
}

for (const locale of ['en-US', 'zh-CN']) {
  describe(`storage unit in ${locale}`, () => {
    let browser;
    before(async () => {
      browser = await openBrowser(locale);
      await browser.context.addInitScript((l) => localStorage.setItem('chargeops_locale', l), locale);
    });
    after(async () => browser?.close());

    test('root sees the unit live and changes its mode; the battery answers and reads back', async () => {
      await browser.context.clearCookies();
      const page = await storagePage(browser, ROOT_NAME, ROOT_PASSWORD);
      const tab = page.getByTestId('device-tab-storage');
      assert.match(await tab.innerText(), locale === 'zh-CN' ? /储能/ : /Storage/);
      await page.getByTestId('storage-flow').waitFor();
      assert.match(await page.getByTestId('storage-flow-grid').getAttribute('data-dir'), /in|out|idle/);
      assert.ok(Number(await page.getByTestId('storage-cell-vmax').getAttribute('data-value')) > 3, 'cell voltage in V');
      const mode = locale === 'zh-CN' ? 'backup' : 'peakShaving';
      await page.getByTestId('storage-mode-select').click();
      await page.locator(`.ant-select-item-option[title]`).filter({ hasText: locale === 'zh-CN' ? '备电' : 'Peak shaving' }).click();
      await page.getByTestId('storage-mode-send').click();
      await page.locator('[data-testid="command-result"][data-result="2"]').first().waitFor({ timeout: 20000 });
      await page.locator(`[data-testid="storage-mode"][data-value="${mode}"]`).waitFor({ timeout: 20000 });
      const text = await page.locator('main, body').first().innerText();
      assert.doesNotMatch(text, /\bess\.[a-z]+\.|control\.type\.\d+|storage\.[a-z]+\./, 'no raw text keys');
      if (shots) await page.screenshot({ path: join(shots, `storage-root-${locale}.png`), fullPage: true });
      // the device list filtered to storage devices lists the unit
      await page.goto(`${server.url}/manage/device/list?category=4`);
      await page.locator('tr', { hasText: SN }).first().waitFor();
      // a new home-storage model takes the storage template's items from its page
      const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: `Home ESS ${locale}`, deviceType: 5 });
      await page.goto(`${server.url}/manage/system/device-model/${model.id}`);
      await page.getByRole('tab', { name: locale === 'zh-CN' ? '控制项' : /control/i }).click();
      await page.getByTestId('item-add-storage').click();
      await page.locator('[data-testid="model-detail"] .ant-table-row', { hasText: locale === 'zh-CN' ? '储能功率设定' : 'Storage power setpoint' }).first().waitFor();
      const items = await root.must('POST', '/api/auth/sys/dev/model/item/list', { modelId: model.id, kind: 'control' });
      assert.deepEqual(items.map((i) => i.controlTypeCode).sort((a, b) => a - b), [9, 11, 29, 30, 31, 32]);
      await page.close();
    });

    test("a customer's staff with the storage key sets the power; one without it has no commands", async () => {
      await browser.context.clearCookies();
      const page = await storagePage(browser, 'batt_staff', 'Storage#Pass123');
      await page.getByTestId('storage-setpoint-input').fill('-15');
      await page.getByTestId('storage-setpoint-send').click();
      await page.locator('[data-testid="command-result"][data-result="2"]').first().waitFor({ timeout: 20000 });
      await page.locator('[data-testid="storage-setpoint"][data-value="-15000"]').waitFor({ timeout: 20000 });
      await page.close();

      await browser.context.clearCookies();
      const viewer = await storagePage(browser, 'batt_viewer', 'Storage#Pass123');
      await viewer.getByTestId('storage-commands-not-allowed').waitFor();
      assert.equal(await viewer.getByTestId('storage-setpoint-send').count(), 0, 'no command without auth_device_storage');
      if (shots) await viewer.screenshot({ path: join(shots, `storage-viewer-${locale}.png`), fullPage: true });
      await viewer.close();
    });
  });
}

test('the server keeps the storage commands to the key and the scope', async () => {
  const { device, viewer, stranger } = fixture;
  const body = { deviceIds: [device.id], controlType: 29, params: { powerW: 1000 } };
  const denied = await viewer.call('POST', '/api/auth/sys/dev/control/send', body);
  assert.notEqual(denied.code, 0, 'without auth_device_storage the server refuses');
  const hidden = await stranger.call('POST', '/api/auth/sys/dev/control/send', body);
  assert.notEqual(hidden.code, 0, "another customer's user cannot command it");
  const detail = await stranger.call('GET', `/api/auth/sys/dev/basic/detail?id=${device.id}`);
  assert.notEqual(detail.code, 0, "another customer's user does not find it");
  const bad = await root.call('POST', '/api/auth/sys/dev/control/send', { ...body, controlType: 30, params: { mode: 'turbo' } });
  assert.equal(bad.code, 10001, 'a mode outside the list is refused before anything is sent');
});
