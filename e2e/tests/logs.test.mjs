// Issue 13 browser flow, logs (docs/logs.md): a charger (ocpp-rpc, strict mode) raises an
// alarm on one connector and faults on another; the error log lists both, the level filter
// keeps the fault alone, and the export downloads an .xlsx whose rows match the table. The
// action log's logs/action/:type/:id route shows only that user's rows. Screens are shot in
// en-US and zh-CN (/tmp/chargeops-logs-shots/).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { RPCClient } from 'ocpp-rpc';
import { startServer, openBrowser, Api, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const SN = 'ERR-CP-0001';
const VIEWER = 'log_viewer';
const VIEWER_PASSWORD = 'Viewer#Pass123';
const SHOTS = new URL('file:///tmp/chargeops-logs-shots/');

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
  mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await charger?.close({ force: true }).catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

const now = () => new Date().toISOString();

/** The text of each row of an xlsx file's first sheet (a zip holding xl/worksheets/sheet1.xml). */
function xlsxRows(buf) {
  // the central directory names each entry and where its local header starts
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const files = {};
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString();
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + size);
    files[name] = (method === 8 ? inflateRawSync(data) : data).toString();
    p += 46 + nameLen + extraLen + commentLen;
  }
  const shared = [...(files['xl/sharedStrings.xml'] ?? '').matchAll(/<si>(.*?)<\/si>/gs)].map((m) => m[1].replace(/<[^>]+>/g, ''));
  const sheet = files['xl/worksheets/sheet1.xml'];
  assert.ok(sheet, `no first sheet in ${Object.keys(files)}`);
  return [...sheet.matchAll(/<row[^>]*>(.*?)<\/row>/gs)].map((row) =>
    [...row[1].matchAll(/<c([^>]*?)(?:\/>|>(.*?)<\/c>)/gs)].map(([, attrs, body = '']) => {
      const text = (/<v>(.*?)<\/v>/s.exec(body)?.[1] ?? /<t[^>]*>(.*?)<\/t>/s.exec(body)?.[1] ?? '').replace(/&amp;/g, '&');
      return /t="s"/.test(attrs) ? shared[Number(text)] : text;
    }),
  );
}

async function pick(page, field, text) {
  await page.locator('.ant-select', { has: page.locator(`#search_${field}`) }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first().click();
}

async function tableSNs(page) {
  return page.locator('[data-testid="error-logs"] .ant-table-tbody tr.ant-table-row td:nth-child(3)').allInnerTexts();
}

test('the error log lists a charger alarm and fault, filters by level, and exports the rows it shows', async () => {
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Error Co', code: 'ERRC' });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: 'Error Yard', code: 'ERR-S' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'ERR-AC-22', deviceType: 2 });
  await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: SN, name: 'Error Bay 1', modelId: model.id, siteId: site.id });

  charger = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: SN, protocols: ['ocpp1.6'], strictMode: true, reconnect: false });
  await charger.connect();
  await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'ERR-AC-22', firmwareVersion: '1.0.0' });
  // connector 1: an alarm (an error code while available, level OA); connector 2: a fault (CA)
  await charger.call('StatusNotification', { connectorId: 1, errorCode: 'WeakSignal', status: 'Available', timestamp: now() });
  await charger.call('StatusNotification', { connectorId: 2, errorCode: 'GroundFailure', status: 'Faulted', timestamp: now() });

  const page = await browser.page();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD, '/manage/system/logs/error');
  const rows = page.locator('[data-testid="error-logs"] .ant-table-tbody tr.ant-table-row');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="error-logs"] .ant-table-tbody tr.ant-table-row').length === 2, null, { timeout: 20000 });
  assert.deepEqual(await tableSNs(page), [SN, SN]);
  await page.screenshot({ path: new URL('logs-error-en.png', SHOTS).pathname, fullPage: true });

  // the level filter (CA) keeps the fault alone, and puts itself in the URL
  await pick(page, 'level', 'CA (critical)');
  await page.getByTestId('list-search').click();
  await page.waitForURL(/level=2/);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="error-logs"] .ant-table-tbody tr.ant-table-row').length === 1);
  const faultRow = await rows.first().innerText();
  assert.match(faultRow, /Fault/);
  assert.match(faultRow, /Open/);

  // the export downloads an xlsx of exactly the filtered rows
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('error-logs-export').click()]);
  assert.equal(download.suggestedFilename(), 'error-log.xlsx');
  const sheet = xlsxRows(readFileSync(await download.path()));
  assert.equal(sheet.length, 2, `header and one row: ${JSON.stringify(sheet)}`);
  assert.equal(sheet[0][0], 'SN');
  assert.equal(sheet[0][2], 'Error type');
  assert.deepEqual([sheet[1][0], sheet[1][2], sheet[1][3], sheet[1][5], sheet[1][7]], [SN, 'Fault', 'GroundFailure', 'CA (critical)', 'Open']);

  // the same screen in Chinese
  await page.evaluate(() => localStorage.setItem('chargeops_locale', 'zh-CN'));
  await page.goto(`${server.url}/manage/system/logs/error`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="error-logs"] .ant-table-tbody tr.ant-table-row').length === 2, null, { timeout: 20000 });
  await page.getByText('错误类型').first().waitFor();
  await page.screenshot({ path: new URL('logs-error-zh.png', SHOTS).pathname, fullPage: true });
  await page.evaluate(() => localStorage.setItem('chargeops_locale', 'en-US'));
});

test('logs/action/:type/:id shows one user\'s rows; the action log exports them', async () => {
  const made = await root.createUser(VIEWER, VIEWER_PASSWORD, ['auth_home']);
  const viewer = await new Api(server.url).login(VIEWER, VIEWER_PASSWORD);
  await viewer.acceptPrivacy();

  const page = await browser.page();
  // the user's detail page leads to that user's action log
  await page.goto(`${server.url}/manage/system/user/detail/${made.id}`);
  await page.getByTestId('user-action-log').click();
  await page.waitForURL(new RegExp(`/manage/system/logs/action/operation/${made.id}$`));
  await page.getByTestId('action-logs-user-filter').waitFor();

  await page.goto(`${server.url}/manage/system/logs/action/login/${made.id}`);
  await page.getByTestId('action-logs-user-filter').waitFor();
  const users = page.locator('[data-testid="action-logs"] .ant-table-tbody tr.ant-table-row td:first-child');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="action-logs"] .ant-table-tbody tr.ant-table-row').length > 0);
  const names = await users.allInnerTexts();
  assert.ok(names.length >= 1 && names.every((n) => n === VIEWER), `rows of ${names}`);
  assert.match(await page.getByTestId('action-logs-user-filter').innerText(), new RegExp(VIEWER));
  await page.screenshot({ path: new URL('logs-action-user-en.png', SHOTS).pathname, fullPage: true });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('action-logs-export').click()]);
  assert.equal(download.suggestedFilename(), 'action-log.xlsx');
  const sheet = xlsxRows(readFileSync(await download.path()));
  assert.equal(sheet.length - 1, names.length, `${JSON.stringify(sheet)} against ${names}`);
  assert.ok(sheet.slice(1).every((r) => r[0] === VIEWER && r[1] === 'Login'), JSON.stringify(sheet));

  // the operation view without an id lists every user again (root's own rows among them)
  await page.getByRole('link', { name: 'Show every user' }).click();
  await page.waitForURL(/logs\/action\/login$/);
  await page.waitForFunction(
    (v) => [...document.querySelectorAll('[data-testid="action-logs"] .ant-table-tbody tr.ant-table-row td:first-child')].some((td) => td.textContent !== v),
    VIEWER,
  );
});
