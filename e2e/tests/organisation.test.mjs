// Issue 3 browser flows: customer → site → model → device through the screens, the xlsx
// import, the data scope of a customer-A user on a typed customer-B site URL, and a user
// without auth_device_add (no add button, 20013 from the API).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, Api, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';
import { xlsx as workbook } from '../files.mjs';

const xlsx = (rows) => workbook(rows, 'Devices');

let server;
let browser;
let root;

before(async () => {
  server = await startServer();
  browser = await openBrowser();
  root = await new Api(server.url).login(ROOT_NAME, ROOT_PASSWORD);
  await root.acceptPrivacy();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function freshPage() {
  await browser.context.clearCookies();
  return browser.context.newPage();
}

async function signedIn(name, password, landing = '**/manage/**') {
  const page = await freshPage();
  await signIn(page, server.url, name, password);
  await page.waitForURL(landing);
  await page.getByTestId('sidebar').waitFor();
  return page;
}

/** Picks an option of the antd Select whose input has id `field` (a Form.Item name). */
async function pick(page, field, text) {
  await page.locator('.ant-select', { has: page.locator(`#${field}`) }).click();
  const search = page.locator(`#${field}`);
  if ((await search.getAttribute('readonly')) === null) await search.fill(text);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first().click();
}

const HEADER = ['SN', 'Name', 'Model', 'Site code', 'Software version', 'Install date', 'Arrival date', 'Maintenance cycle'];

test('root creates customer → site → model → device through the screens and sees the device in the list', async () => {
  const page = await signedIn(ROOT_NAME, ROOT_PASSWORD, '**/manage/home');

  // customer (drawer on the customer list)
  await page.goto(`${server.url}/manage/system/customer/list`);
  await page.getByTestId('customer-add').click();
  await page.getByTestId('customer-name').fill('Harbour Energy');
  await page.getByTestId('customer-code').fill('HARBOUR');
  await page.getByTestId('customer-form-save').click();
  await page.getByTestId('customer-list').getByText('Harbour Energy').waitFor();

  // site (add page), then its detail page
  await page.goto(`${server.url}/manage/site/add`);
  await pick(page, 'customerId', 'Harbour Energy');
  await page.getByTestId('site-name').fill('Kowloon Bay Depot');
  await page.getByTestId('site-code').fill('HK-KB-01');
  await page.getByTestId('site-save').click();
  await page.waitForURL(/\/manage\/site\/detail\/\d+$/);
  await page.getByTestId('site-detail').getByText('Kowloon Bay Depot').first().waitFor();

  // device model (drawer on the model list)
  await page.goto(`${server.url}/manage/system/device-model`);
  await page.getByTestId('model-add').click();
  await page.getByTestId('model-name').fill('E2E-AC-22kW');
  await pick(page, 'deviceType', 'AC pile');
  await page.getByTestId('model-form-save').click();
  await page.getByTestId('model-list').getByText('E2E-AC-22kW').waitFor();

  // device: add/:SN pre-fills the SN
  await page.goto(`${server.url}/manage/device/add/HKKB-0001`);
  assert.equal(await page.getByTestId('device-sn').inputValue(), 'HKKB-0001');
  await page.getByTestId('device-name').fill('Bay 1 charger');
  await pick(page, 'modelId', 'E2E-AC-22kW');
  await pick(page, 'customerId', 'Harbour Energy');
  await pick(page, 'siteId', 'Kowloon Bay Depot');
  await page.getByTestId('device-save').click();
  await page.waitForURL('**/manage/device/list');
  const row = page.getByTestId('device-list').locator('tr', { hasText: 'HKKB-0001' });
  await row.waitFor();
  assert.match(await row.textContent(), /Bay 1 charger/);
  assert.match(await row.textContent(), /Kowloon Bay Depot/);

  // the detail frame shows the header and the three tabs
  await row.getByText('HKKB-0001').click();
  await page.getByTestId('device-detail').waitFor();
  for (const tab of ['Device Details', 'Remote Operations', 'Issues']) await page.getByRole('tab', { name: tab }).waitFor();
  await page.getByTestId('device-header').getByText('E2E-AC-22kW').waitFor();
  await page.close();
});

test('a three-row xlsx imported through the device import screen adds three devices; a bad row names its row', async () => {
  const c = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Import Co', code: 'IMPORTCO' });
  await root.must('POST', '/api/auth/sys/site/add', { customerId: c.id, name: 'Import Yard', code: 'IMP-01' });
  await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'IMP-DC-60', deviceType: 1 });

  const page = await freshPage();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD, '/manage/device/list');
  await page.getByTestId('device-import').click();
  const modal = page.getByTestId('import-modal');
  await modal.waitFor();

  // the template downloads as a file through the blob helper
  const [download] = await Promise.all([page.waitForEvent('download'), modal.getByTestId('import-template').click()]);
  assert.match(download.suggestedFilename(), /\.xlsx$/);

  // a bad row: nothing imported, the row is reported
  const bad = xlsx([HEADER, ['IMP-BAD-1', 'Bad 1', 'IMP-DC-60', 'IMP-01'], ['IMP-BAD-2', 'Bad 2', 'IMP-DC-60', 'NO-SUCH-SITE']]);
  await modal.locator('input[type=file]').setInputFiles({ name: 'bad.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: bad });
  await page.getByTestId('import-submit').click();
  const rows = page.getByTestId('import-rows');
  await rows.waitFor();
  // row 3 (the second data row) is reported, row 2 is fine
  await rows.locator('td', { hasText: /^3$/ }).waitFor();
  assert.equal(await rows.locator('td', { hasText: /^2$/ }).count(), 0);

  const good = xlsx([
    HEADER,
    ['IMP-0001', 'Import 1', 'IMP-DC-60', 'IMP-01', '1.0.0', '2026-01-31', '2026-01-15', '180'],
    ['IMP-0002', 'Import 2', 'IMP-DC-60', 'IMP-01', '1.0.0', '', '', ''],
    ['IMP-0003', 'Import 3', 'IMP-DC-60', 'IMP-01', '', '', '', '90'],
  ]);
  await modal.locator('input[type=file]').setInputFiles({ name: 'devices.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: good });
  await page.getByTestId('import-submit').click();
  await page.getByTestId('import-done').waitFor();
  assert.match(await page.getByTestId('import-done').textContent(), /3 devices imported/);
  await page.keyboard.press('Escape');

  // the list, filtered by the SN prefix through the URL, shows the three devices and only them
  await page.goto(`${server.url}/manage/device/list?keyword=IMP-`);
  const list = page.getByTestId('device-list');
  for (const sn of ['IMP-0001', 'IMP-0002', 'IMP-0003']) await list.getByText(sn, { exact: true }).waitFor();
  assert.equal(await list.getByText('IMP-BAD-1').count(), 0);
  await list.getByText('3 items in total').waitFor();
  await page.close();
});

test('a customer-A user cannot open a customer-B site by typing its URL', async () => {
  const a = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Alpha Charging', code: 'ALPHA' });
  const b = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Bravo Power', code: 'BRAVO' });
  const siteA = await root.must('POST', '/api/auth/sys/site/add', { customerId: a.id, name: 'Alpha Site One', code: 'ALPHA-01' });
  const siteB = await root.must('POST', '/api/auth/sys/site/add', { customerId: b.id, name: 'Bravo Secret Site', code: 'BRAVO-01' });
  const role = await root.must('POST', '/api/auth/sys/role/add', { name: 'Alpha operators' });
  await root.must('POST', '/api/auth/sys/role/auth/menu', { id: role.id, keys: ['auth_site', 'auth_site_list', 'auth_site_detail', 'auth_my'] });
  await root.must('POST', '/api/auth/sys/role/auth/data', {
    id: role.id, customerAccess: 1, siteAccess: 0, webSshAccess: 0, webSshLevel: 0, cfgReadLevel: 0, cfgWriteLevel: 0,
    cfgDownloadLevel: 0, paramLevel: 0, docLevel: 0, attachLevel: 0, emailAlarm: false, userAccess: false,
  });
  const k = await root.key();
  await root.must('POST', '/api/auth/sys/user/add', {
    userName: 'alpha_ops', keyId: k.keyId, password: await k.fresh('Alpha#Ops123'), roleId: role.id, customerId: a.id, email: 'alpha_ops@example.com',
  });
  const user = await new Api(server.url).login('alpha_ops', 'Alpha#Ops123');
  await user.acceptPrivacy();

  const page = await signedIn('alpha_ops', 'Alpha#Ops123', '**/manage/welcome');
  // own site: visible
  await page.goto(`${server.url}/manage/site/detail/${siteA.id}`);
  await page.getByTestId('site-detail').getByText('Alpha Site One').first().waitFor();
  // customer B's site by URL: not found, none of its data
  await page.goto(`${server.url}/manage/site/detail/${siteB.id}`);
  await page.getByTestId('detail-not-found').waitFor();
  const body = await page.locator('body').textContent();
  assert.ok(!body.includes('Bravo Secret Site'), 'B site name must not show');
  assert.ok(!body.includes('BRAVO-01'), 'B site code must not show');
  // and the list holds only A's site
  await page.goto(`${server.url}/manage/site/list`);
  await page.getByTestId('site-list').getByText('Alpha Site One').waitFor();
  assert.equal(await page.getByTestId('site-list').getByText('Bravo Secret Site').count(), 0);
  await page.close();
});

test('a user without auth_device_add sees no add button and gets 20013 from the API', async () => {
  await root.createUser('device_viewer', 'Device#View123', ['auth_device', 'auth_device_list', 'auth_device_detail', 'auth_my']);
  const user = await new Api(server.url).login('device_viewer', 'Device#View123');
  await user.acceptPrivacy();

  const page = await signedIn('device_viewer', 'Device#View123', '**/manage/welcome');
  await page.goto(`${server.url}/manage/device/list`);
  await page.getByTestId('device-list').waitFor();
  await page.getByTestId('device-export').waitFor();
  assert.equal(await page.getByTestId('device-add').count(), 0);
  assert.equal(await page.getByTestId('device-import').count(), 0);
  // the add route itself is refused
  await page.goto(`${server.url}/manage/device/add`);
  await page.getByTestId('page-noauth').waitFor();
  await page.close();

  const answer = await user.call('POST', '/api/auth/sys/dev/basic/add', { sn: 'NOPE-0001', name: 'Nope', modelId: 1, siteId: 1 });
  assert.equal(answer.code, 20013);
});
