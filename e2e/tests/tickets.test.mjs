// Issue 12 browser flow, tickets: a simulated charger (ocpp-rpc) faults; on its device page the
// alarm list's "Create ticket" opens the ticket drawer pre-filled from the alarm; saved, the
// ticket is commented, closed with a comment and reopened with a comment (each a process
// entry); a share link opened signed out in a fresh browser shows the ticket and takes a
// comment under a typed name, which the console then shows as "anonymous: name". Screens are
// saved in en-US and zh-CN when CHARGEOPS_E2E_SHOTS names a directory.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { RPCClient } from 'ocpp-rpc';
import { startServer, openBrowser, Api, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const SN = 'TKT-CP-0001';
const shots = process.env.CHARGEOPS_E2E_SHOTS;

let server;
let browser;
let visitor;
let root;
let charger;

before(async () => {
  server = await startServer(['--language-switch']);
  browser = await openBrowser('en-US');
  await browser.context.addInitScript(() => {
    if (!localStorage.getItem('chargeops_locale')) localStorage.setItem('chargeops_locale', 'en-US');
  });
  root = await new Api(server.url).login(ROOT_NAME, ROOT_PASSWORD);
  await root.acceptPrivacy();
});

after(async () => {
  await charger?.close({ force: true }).catch(() => undefined);
  await visitor?.close();
  await browser?.close();
  await server?.stop();
});

const now = () => new Date().toISOString();

async function shot(page, name) {
  if (shots) await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

/** Types text into a rich-text editor (its ProseMirror area). */
async function write(page, testId, text) {
  const area = page.locator(`[data-testid="${testId}-content"] .ProseMirror`);
  await area.click();
  await page.keyboard.type(text);
}

test('a faulted charger: create a ticket from its alarm, comment, close and reopen with comments, share it and comment signed out', async () => {
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Ticket Co', code: 'TKTC' });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: 'Ticket Yard', code: 'TKT-S' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'TKT-AC-22', deviceType: 2 });
  const device = await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: SN, name: 'Ticket Bay 1', modelId: model.id, siteId: site.id });

  charger = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: SN, protocols: ['ocpp1.6'], strictMode: true, reconnect: false });
  await charger.connect();
  await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'TKT-AC-22', firmwareVersion: '2.4.1' });
  await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available', timestamp: now() });
  await charger.call('StatusNotification', { connectorId: 1, errorCode: 'GroundFailure', status: 'Faulted', timestamp: now() });

  const page = await browser.page();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD);
  await page.waitForURL('**/manage/**');

  // the device page's alarm list: "Create ticket" on the fault
  await page.goto(`${server.url}/manage/device/detail/${device.id}`);
  const create = page.locator('[data-testid="section-alarms"]').getByTestId('event-create-ticket').first();
  await create.waitFor();
  await create.click();
  const title = page.getByTestId('ticket-title');
  await title.waitFor();
  assert.match(await title.inputValue(), /ground/i, 'title = the alarm name');
  await shot(page, 'ticket-from-alarm-en');
  await page.getByTestId('ticket-form-save').click();
  await page.waitForURL('**/manage/issue/detail/**');
  await page.getByTestId('ticket-fields').waitFor();
  assert.equal(await page.getByTestId('ticket-state').first().getAttribute('data-value'), 'open');
  assert.match(await page.getByTestId('ticket-fields').innerText(), new RegExp(SN));
  const ticketId = Number(page.url().split('/').pop());

  // comment
  await write(page, 'ticket-comment', 'Checked the connector: the ground wire is loose.');
  await page.getByTestId('ticket-comment-submit').click();
  await page.getByTestId('ticket-entry-comment').filter({ hasText: 'ground wire is loose' }).waitFor();

  // close: the comment is required
  await page.getByTestId('ticket-close').click();
  await page.getByTestId('ticket-close-modal-ok').click();
  await page.locator('[data-testid="ticket-close-modal"] .ant-form-item-explain-error').waitFor();
  await write(page, 'ticket-close-modal-editor', 'Tightened the ground wire.');
  await page.getByTestId('ticket-close-modal-ok').click();
  await page.locator('[data-testid="ticket-state"][data-value="closed"]').first().waitFor();
  await page.getByTestId('ticket-entry-state').filter({ hasText: 'Tightened the ground wire' }).waitFor();

  // reopen with a comment
  await page.getByTestId('ticket-reopen').click();
  await write(page, 'ticket-reopen-modal-editor', 'It faulted again overnight.');
  await page.getByTestId('ticket-reopen-modal-ok').click();
  await page.locator('[data-testid="ticket-state"][data-value="reopen"]').first().waitFor();
  const detail = await root.must('GET', `/api/auth/sys/issue/detail?id=${ticketId}`);
  assert.deepEqual(
    detail.entries.map((e) => (e.kind === 'state' ? `${e.from}>${e.to}` : e.kind)),
    ['create', 'comment', 'open>closed', 'closed>reopen'],
  );
  assert.equal(detail.eventId > 0, true, 'the ticket keeps its alarm');
  assert.equal(detail.siteId, site.id);
  assert.equal(detail.customerId, customer.id);

  // share: 7 days, the link shown once
  await page.getByTestId('ticket-share').click();
  await page.getByTestId('ticket-share-make').click();
  const link = (await page.getByTestId('ticket-share-url').innerText()).trim();
  assert.match(link, /\/share\/issue\?token=[0-9a-f]{32}$/);
  await page.locator('[data-testid="ticket-share-list"] .ant-table-row').first().waitFor();
  await shot(page, 'ticket-share-en');
  await page.keyboard.press('Escape');

  // signed out, in a fresh browser: the ticket, and a comment by name
  visitor = await openBrowser('en-US');
  const anon = await visitor.page();
  await anon.goto(link);
  await anon.getByTestId('share-issue-title').waitFor();
  assert.match(await anon.getByTestId('share-issue-title').innerText(), /ground/i);
  assert.doesNotMatch(await anon.getByTestId('share-issue').innerText(), /Ticket Co|Ticket Yard/, 'no customer or site names');
  await anon.getByTestId('share-issue-submit').click();
  await anon.locator('[data-testid="share-issue-comment-form"] .ant-form-item-explain-error').first().waitFor();
  await anon.getByTestId('share-issue-name').fill('Site guard');
  await write(anon, 'share-issue-comment', 'The bay is taped off.');
  await anon.getByTestId('share-issue-submit').click();
  await anon.getByTestId('ticket-entry-anonymous').filter({ hasText: 'Site guard' }).waitFor();
  await shot(anon, 'ticket-share-page-en');

  // the console shows the visitor's comment
  await page.reload();
  await page.getByTestId('ticket-entry-anonymous').filter({ hasText: 'Site guard' }).waitFor();
  await shot(page, 'ticket-detail-en');

  // Chinese screens
  if (shots) {
    await page.evaluate(() => localStorage.setItem('chargeops_locale', 'zh-CN'));
    await page.reload();
    await page.getByTestId('ticket-fields').waitFor();
    await shot(page, 'ticket-detail-zh');
    await page.goto(`${server.url}/manage/issue/list?tab=all`);
    await page.locator('[data-testid="ticket-list"] .ant-table-row').first().waitFor();
    await shot(page, 'ticket-list-zh');
    await page.goto(`${server.url}/manage/device/detail/${device.id}/issues`);
    await page.locator('[data-testid="device-tickets"] .ant-table-row').first().waitFor();
    await shot(page, 'device-issues-zh');
    await anon.evaluate(() => localStorage.setItem('chargeops_locale', 'zh-CN'));
    await anon.reload();
    await anon.getByTestId('share-issue-title').waitFor();
    await shot(anon, 'ticket-share-page-zh');
  }

  // revoked: the link says so
  const shares = await root.must('POST', '/api/auth/sys/issue/share/list', { id: ticketId });
  await root.must('POST', '/api/auth/sys/issue/share/revoke', { id: shares[0].id });
  await anon.reload();
  await anon.getByTestId('share-issue-gone').waitFor();
});
