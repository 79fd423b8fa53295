// Issue 11 browser flow, messages: a charger (ocpp-rpc, strict mode) faults and root's header
// bell counts up without a reload (server push), a 5 s notification says so; the bell opens the
// notification centre, which lists the fault, and processing it brings the count back. The
// reception settings save and come back after a reload. The console runs in en-US; one zh-CN
// text of the notification centre is checked at the end.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { RPCClient } from 'ocpp-rpc';
import { startServer, openBrowser, Api, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const SN = 'MSG-CP-0001';
const SITE = 'Message Yard';
const OTHER_SITE = 'Quiet Yard';

let server;
let browser;
let root;
let charger;

before(async () => {
  server = await startServer();
  browser = await openBrowser('en-US');
  await browser.context.addInitScript(() => {
    if (!localStorage.getItem('chargeops_locale')) localStorage.setItem('chargeops_locale', 'en-US');
  });
  root = await new Api(server.url).login(ROOT_NAME, ROOT_PASSWORD);
  await root.acceptPrivacy();
});

after(async () => {
  await charger?.close({ force: true }).catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

const now = () => new Date().toISOString();

/** The bell's count (data-count; '' until the first answer). */
async function bellCount(page) {
  const v = await page.getByTestId('message-bell').getAttribute('data-count');
  return v === '' || v === null ? undefined : Number(v);
}

async function waitBell(page, ok, what, timeout = 20000) {
  const deadline = Date.now() + timeout;
  let got;
  while (Date.now() < deadline) {
    got = await bellCount(page).catch(() => undefined);
    if (got !== undefined && ok(got)) return got;
    await page.waitForTimeout(100);
  }
  assert.fail(`the bell shows ${got}, want ${what}`);
}

async function pick(page, field, text) {
  await page.locator('.ant-select', { has: page.locator(`#${field}`) }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first().click();
  await page.keyboard.press('Escape');
}

test('a charger faults: the bell counts up live; the notification centre lists and processes it; settings save', async () => {
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Message Co', code: 'MSGC' });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: SITE, code: 'MSG-S' });
  await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: OTHER_SITE, code: 'MSG-Q' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'MSG-AC-22', deviceType: 2 });
  const device = await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: SN, name: 'Message Bay 1', modelId: model.id, siteId: site.id, maintenanceCycle: 90 });

  charger = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: SN, protocols: ['ocpp1.6'], strictMode: true, reconnect: false });
  await charger.connect();
  await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'MSG-AC-22', firmwareVersion: '1.0.0' });
  await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available', timestamp: now() });

  const page = await browser.page();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD);
  await page.waitForURL('**/manage/**');
  const before = await waitBell(page, () => true, 'a count');
  // the bell follows the push stream
  await page.waitForFunction(() => document.querySelector('[data-testid="message-bell"]')?.getAttribute('data-live') === '1');

  // the charger faults: the count rises without a reload, and a notification says so
  const url = page.url();
  await charger.call('StatusNotification', { connectorId: 1, errorCode: 'GroundFailure', status: 'Faulted', timestamp: now() });
  const after = await waitBell(page, (n) => n > before, `more than ${before}`);
  assert.equal(after, before + 1);
  assert.equal(page.url(), url, 'no navigation');
  await page.getByTestId('message-notice').waitFor();

  // the bell opens the notification centre, which lists the fault
  await page.getByTestId('message-bell').click();
  await page.waitForURL('**/manage/message/list');
  const row = page.locator('[data-testid="message-list"] .ant-table-row', { has: page.getByTestId('message-device').filter({ hasText: SN }) });
  await row.first().waitFor();
  assert.equal(await row.count(), 1);
  assert.equal(await row.getByTestId('message-kind').getAttribute('data-value'), '2');
  assert.equal(await row.getByTestId('message-read').getAttribute('data-value'), '0', 'unread');
  assert.equal(await row.getByTestId('message-processed').getAttribute('data-value'), '0');
  assert.equal(await row.getByTestId('message-recovered').getAttribute('data-value'), '0');
  assert.match(await row.getByTestId('message-name').innerText(), /GroundFailure|Ground failure/i);
  assert.equal(await row.getByTestId('message-device').getAttribute('href'), `/manage/device/detail/${device.id}`);

  // the untreated filter finds it
  await page.locator('.ant-select', { has: page.locator('#search_processed') }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Untreated' }).first().click();
  await page.getByTestId('list-search').click();
  await page.waitForURL(/processed=0/);
  await row.first().waitFor();

  // process it (all states shown again): processed, read, and the bell back where it was
  await page.goto(`${server.url}/manage/message/list`);
  await row.first().waitFor();
  await row.getByTestId('message-do-process').click();
  await row.locator('[data-testid="message-processed"][data-value="1"]').waitFor();
  assert.equal(await row.getByTestId('message-read').getAttribute('data-value'), '1', 'processing marks read');
  assert.equal(await row.getByTestId('message-mark-read').count(), 0);
  await waitBell(page, (n) => n === before, `${before}`);
  const listed = await root.must('POST', '/api/auth/sys/message/list', { page: 1, pageSize: 20, processed: 1 });
  assert.ok(listed.list.some((m) => m.sn === SN && m.processed && m.read && m.processedBy));

  // reception settings: save, reload, the values stay
  await page.goto(`${server.url}/manage/message/setting`);
  await page.getByTestId('setting-save').waitFor();
  await page.getByTestId('setting-kind-0').click(); // offline off
  await page.getByTestId('setting-level-0').click(); // OA off
  await page.getByTestId('setting-all-sites-no').click();
  await pick(page, 'siteIds', SITE);
  await page.getByTestId('setting-mail').click(); // mail off
  await page.getByTestId('setting-frequency-delayed').click();
  const delay = page.locator('[data-testid="setting-delay"]').locator('xpath=descendant-or-self::input');
  await delay.fill('45');
  await page.getByTestId('setting-save').click();
  await page.locator('.ant-message-notice', { hasText: 'Saved' }).waitFor();

  const saved = await root.must('GET', '/api/auth/sys/message/setting');
  assert.deepEqual(saved, { kinds: [1, 2, 3], levels: [1, 2], allSites: false, siteIds: [site.id], console: true, mail: false, frequency: 'delayed', delayMinutes: 45 });

  await page.reload();
  await page.getByTestId('setting-save').waitFor();
  await page.locator('.ant-select-selection-item', { hasText: SITE }).waitFor();
  const checked = async (testId) => page.getByTestId(testId).locator('xpath=ancestor::label[1]').locator('input').isChecked();
  assert.equal(await checked('setting-kind-0'), false);
  assert.equal(await checked('setting-kind-2'), true);
  assert.equal(await checked('setting-level-0'), false);
  assert.equal(await checked('setting-level-2'), true);
  assert.equal(await page.getByTestId('setting-all-sites-no').isChecked(), true);
  assert.equal(await page.getByTestId('setting-frequency-delayed').isChecked(), true);
  assert.equal(await page.getByTestId('setting-mail').getAttribute('aria-checked'), 'false');
  assert.equal(await page.getByTestId('setting-console').getAttribute('aria-checked'), 'true');
  assert.equal(await delay.inputValue(), '45');

  // one zh-CN text: the notification centre in Chinese
  await page.evaluate(() => localStorage.setItem('chargeops_locale', 'zh-CN'));
  await page.goto(`${server.url}/manage/message/list`);
  await row.first().waitFor();
  assert.equal((await row.getByTestId('message-processed').innerText()).trim(), '已处理');
  await page.getByTestId('message-read-all').filter({ hasText: '全部标为已读' }).waitFor();
});
