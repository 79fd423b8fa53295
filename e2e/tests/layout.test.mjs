// Issue 30 item 6 (layouts at 1366 and 1440 px): the lists an operator scans in an incident
// keep their key columns and row actions in view — notifications (device, alarm, last time,
// actions), attachments (name, actions), users (user name, actions) and home's top devices (the
// count beside a cut name). Key headers must lie inside the viewport and the row actions must be
// clickable there (Playwright's actionability check: visible, stable, not covered). Screens are
// shot to /tmp/chargeops-layout-shots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RPCClient } from 'ocpp-rpc';
import { setUp, tearDown, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';
import { pdf } from '../files.mjs';

const SHOTS = '/tmp/chargeops-layout-shots/';
const SN = 'LAYOUT-CHARGER-WITH-A-LONG-SERIAL-0001';
const WIDTHS = [1366, 1440];

let w;
let page;
let charger;
let device;

before(async () => {
  w = await setUp('layout');
  await w.browser.context.addInitScript(() => {
    if (!localStorage.getItem('chargeops_locale')) localStorage.setItem('chargeops_locale', 'en-US');
  });
  mkdirSync(SHOTS, { recursive: true });
  const { root, server } = w;
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Layout Holdings International Limited', code: 'LAYOUT' });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: 'Kowloon Bay Multi-storey Car Park Level 3 East', code: 'LAY-S' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'LAY-AC-22', deviceType: 2 });
  device = await root.must('POST', '/api/auth/sys/dev/basic/add', {
    sn: SN, name: 'Bay 8 fast charger beside the lift lobby', modelId: model.id, siteId: site.id, maintenanceCycle: 90,
  });
  await root.createUser('layout_operator_with_a_long_name', 'Layout#Pass123', ['auth_device', 'auth_device_list']);

  // one alarm: a message row for root and a fault on home's top devices
  charger = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: SN, protocols: ['ocpp1.6'], strictMode: true, reconnect: false });
  await charger.connect();
  await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'LAY-AC-22', firmwareVersion: '1.0.0' });
  await charger.call('StatusNotification', { connectorId: 1, errorCode: 'HighTemperature', status: 'Faulted', timestamp: new Date().toISOString() });
  for (let i = 0; i < 100; i++) {
    const rows = (await root.must('POST', '/api/auth/sys/message/list', { page: 1, pageSize: 10 })).list;
    if (rows.some((m) => m.sn === SN)) break;
    await new Promise((r) => setTimeout(r, 200));
  }

  page = await w.browser.page();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD);
  await page.waitForURL('**/manage/**');

  // one file in a folder, uploaded through the console
  const file = join(w.dir, 'site-commissioning-report.pdf');
  writeFileSync(file, pdf());
  await page.goto(`${server.url}/manage/attach/list`);
  await page.getByTestId('attach-folder-add-top').click();
  const customerSelect = page.getByTestId('attach-folder-customer');
  if (await customerSelect.count()) {
    await customerSelect.click();
    await page.locator('.ant-select-item-option', { hasText: 'Layout Holdings' }).click();
  }
  await page.getByTestId('attach-folder-name').fill('Reports');
  await page.getByTestId('attach-folder-ok').click();
  await page.locator('[data-testid="attach-folder"][data-path="Reports"]').click();
  await page.getByTestId('attach-current').filter({ hasText: 'Reports' }).waitFor();
  await page.getByTestId('attach-upload').click();
  await page.locator('.ant-modal input[type=file]').setInputFiles(file);
  await page.getByTestId('attach-upload-description').fill('the commissioning report of the east car park, signed by the contractor');
  await page.getByTestId('attach-upload-ok').click();
  await page.locator('[data-testid="attach-list"] tr', { hasText: 'site-commissioning-report.pdf' }).waitFor();
});

after(async () => {
  await charger?.close({ force: true }).catch(() => undefined);
  await tearDown(w);
});

/** Fails unless the element lies wholly inside the viewport's width. */
async function inView(locator, what, width) {
  await locator.waitFor();
  const box = await locator.boundingBox();
  assert.ok(box, `${what}: no box at ${width} px`);
  if (!(box.x >= 0 && box.x + box.width <= width + 0.5)) await page.screenshot({ path: `${SHOTS}failed-${width}.png` });
  assert.ok(box.x >= 0 && box.x + box.width <= width + 0.5, `${what} at ${width} px: x ${box.x}..${box.x + box.width} is outside 0..${width}`);
}

/** Fails unless the header cell titled `title` of the table under `testId` is in view. */
const header = (testId, title) => page.getByTestId(testId).locator('thead th', { hasText: title }).first();

/** In view and clickable where it is (actionability only: nothing is clicked). */
async function clickable(locator, what, width) {
  await inView(locator, what, width);
  await locator.click({ trial: true, timeout: 5000 });
}

for (const width of WIDTHS) {
  test(`at ${width} px the key columns and row actions are in view`, async () => {
    await page.setViewportSize({ width, height: 860 });

    // notifications: device, alarm, last time and the row's actions
    await page.goto(`${w.server.url}/manage/message/list`);
    const row = page.getByTestId('message-list').locator('tr.ant-table-row', { hasText: SN });
    await row.waitFor();
    for (const h of ['Device', 'Name / code', 'Actions']) await inView(header('message-list', h), `notification header ${h}`, width);
    await clickable(row.getByTestId('message-do-process'), 'notification Process', width);
    await clickable(row.getByTestId('message-mark-read'), 'notification Mark read', width);
    await page.screenshot({ path: `${SHOTS}messages-${width}.png` });

    // attachments: name and actions
    await page.goto(`${w.server.url}/manage/attach/list`);
    await page.locator('[data-testid="attach-folder"][data-path="Reports"]').click();
    const file = page.locator('[data-testid="attach-list"] tr.ant-table-row', { hasText: 'site-commissioning-report.pdf' });
    await file.waitFor();
    for (const h of ['Name', 'Actions']) await inView(header('attach-list', h), `attachment header ${h}`, width);
    for (const a of ['attach-download', 'attach-share', 'attach-edit', 'attach-delete']) await clickable(file.getByTestId(a), `attachment ${a}`, width);
    await page.screenshot({ path: `${SHOTS}attachments-${width}.png` });

    // users: user name and actions
    await page.goto(`${w.server.url}/manage/system/user/list`);
    const user = page.locator('tr.ant-table-row', { hasText: 'layout_operator_with_a_long_name' });
    await user.waitFor();
    await inView(user.locator('td').filter({ hasText: 'layout_operator_with_a_long_name' }).first(), 'user name', width);
    await clickable(user.locator('a', { hasText: 'Edit' }), 'user Edit', width);
    await clickable(user.locator('a', { hasText: 'Disable' }), 'user Disable', width);
    await page.screenshot({ path: `${SHOTS}users-${width}.png` });

    // home: the top devices' count beside the (cut) device name
    await page.goto(`${w.server.url}/manage/home`);
    const count = page.getByTestId(`home-rank-devices-${device.id}`);
    await count.waitFor({ timeout: 20000 });
    await count.scrollIntoViewIfNeeded();
    await inView(count, 'home top devices count', width);
    // home: the recent events keep the alarm in view beside a long SN and site
    const recent = page.getByTestId('home-recent-events');
    await recent.scrollIntoViewIfNeeded();
    await inView(recent.locator('thead th', { hasText: 'Alarm' }).first(), 'home recent events alarm header', width);
    await inView(recent.locator('tbody tr.ant-table-row').first().getByText('High temperature'), 'home recent events alarm', width);
    await page.screenshot({ path: `${SHOTS}home-${width}.png`, fullPage: true });
  });
}
