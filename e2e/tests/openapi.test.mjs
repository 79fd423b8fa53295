// Issue 13, the console's OpenAPI screens (docs/openapi-console.md): an application makes signed
// calls (docs/openapi/client.mjs, the guide's client), one of them with a wrong signature; the
// OpenAPI list shows its calls today and its error, and its request log page shows the calls and
// the refused one in the table, the summary figures and the charts drawn. The zh-CN console
// shows the same screens in Chinese, on a server in another time zone (America/New_York): the
// statistics' days are the console's time zone's. Screenshots go to $OPENAPI_SHOTS when it is set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setUp, tearDown, localeFixture, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';
import { signHeaders, signedFetch } from '../../docs/openapi/client.mjs';

const shots = process.env.OPENAPI_SHOTS;
const shot = async (page, name) => {
  if (shots) await page.waitForTimeout(800);
  if (shots) await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
};

/** An application bound to a user who may list devices and sites, and five calls: four signed, one not. */
async function appWithCalls(server, root, name, userName) {
  const user = await root.createUser(userName, 'Bot#Pass12345', ['auth_device', 'auth_device_list', 'auth_site', 'auth_site_list']);
  const app = await root.must('POST', '/api/auth/sys/application/add', { name, userId: user.id });
  for (const path of ['/openapi/v1/devices?pageSize=20', '/openapi/v1/devices?pageSize=50', '/openapi/v1/sites?pageSize=20']) {
    const a = await signedFetch(server.url, app.appId, app.appSecret, 'GET', path);
    assert.equal(a.code, 0, `${path}: ${a.message}`);
  }
  const wrong = await fetch(`${server.url}/openapi/v1/devices?pageSize=10`, {
    headers: signHeaders({ method: 'GET', url: `${server.url}/openapi/v1/devices?pageSize=10`, appId: app.appId, secret: 'not-the-secret' }),
  });
  assert.equal(wrong.status, 401);
  assert.equal((await wrong.json()).code, 40006);
  // the request log is written in batches (at most 500 ms later)
  for (let i = 0; ; i++) {
    const log = await root.must('POST', '/api/auth/sys/openapi/log/list', { id: app.id });
    if (log.total === 4) break;
    if (i > 50) throw new Error(`request log holds ${log.total} calls, want 4`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return app;
}

/** The date (YYYY-MM-DD) `back` days before an instant in a time zone. */
function dateIn(tz, ms, back = 0) {
  const d = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
  return new Date(Date.parse(`${d}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10);
}

/** The log page's range is the last 7 days of the console's time zone, today included, named in its label. */
async function defaultRangeIn(page, tz, label) {
  const before = Date.now();
  const inputs = page.locator('input[data-testid="openapi-range"]'); // antd puts the test id on both inputs
  await inputs.nth(1).waitFor();
  const got = [await inputs.nth(0).inputValue(), await inputs.nth(1).inputValue()];
  // either side of a midnight in tz while the page loaded
  const want = [before, Date.now()].map((ms) => [dateIn(tz, ms, 6), dateIn(tz, ms)]);
  assert.ok(want.some((w) => w[0] === got[0] && w[1] === got[1]), `range ${got} in ${tz}, want ${want[0]}`);
  await page.getByText(label, { exact: true }).waitFor();
  assert.equal(await page.locator('[data-testid="openapi-daily-chart"]').getAttribute('data-days'), '7');
}

/** Every chart of the log page has drawn its canvas. */
async function chartsDrawn(page) {
  for (const id of ['openapi-daily-chart', 'openapi-endpoint-chart', 'openapi-latency-chart']) {
    await page.locator(`[data-testid="${id}"] canvas`).first().waitFor();
  }
}

let world;
before(async () => {
  world = await setUp('openapi-console');
});

after(() => tearDown(world));

test('the list and the request log show the calls, the refused one and the charts', async () => {
  const { server, browser, root } = world;
  const app = await appWithCalls(server, root, 'Billing sync', 'billing_bot');

  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD);
  await page.waitForURL('**/manage/home');

  // the list: calls today and in 7 days, one error, the appId; the name opens the log
  await page.goto(`${server.url}/manage/system/openapi`);
  await page.waitForURL('**/manage/system/openapi/list');
  const row = page.locator('[data-testid="openapi-apps"] tr', { hasText: 'Billing sync' });
  await row.waitFor();
  const cells = await row.locator('td').allInnerTexts();
  assert.ok(cells.includes(app.appId), cells.join(' | '));
  // columns: name, status, user, customer, appId, today, 7 days, errors, last call
  assert.deepEqual(cells.slice(5, 8), ['4', '4', '1'], cells.join(' | '));
  assert.match(cells[8], /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\+8$/);
  await shot(page, 'en-list');

  await row.getByTestId(`openapi-app-${app.id}`).click();
  await page.waitForURL(`**/manage/system/openapi/logDetail/${app.id}/${app.appId}`);
  await page.getByTestId('openapi-appid').filter({ hasText: app.appId }).waitFor();
  await page.getByTestId('openapi-total-calls').filter({ hasText: '4' }).waitFor();
  await page.getByTestId('openapi-total-errors').filter({ hasText: '1' }).waitFor();
  await page.getByTestId('openapi-error-rate').filter({ hasText: '25%' }).waitFor();
  await chartsDrawn(page);
  assert.equal(await page.locator('[data-testid="openapi-endpoint-chart"]').getAttribute('data-endpoints'), '2');
  await defaultRangeIn(page, 'Asia/Hong_Kong', 'Days (Asia/Hong_Kong)');

  // the table: newest first, the refused call on top with its status and code
  const table = page.getByTestId('openapi-requests');
  const rows = table.locator('tbody tr.ant-table-row');
  await rows.nth(3).waitFor();
  assert.equal(await rows.count(), 4);
  const top = await rows.first().locator('td').allInnerTexts();
  assert.equal(top[1], 'GET /openapi/v1/devices', top.join(' | '));
  assert.equal(top[2], '401');
  assert.equal(top[3], '40006');
  assert.equal(top[5], '127.0.0.1');
  assert.equal(top[6], 'pageSize=10');
  assert.match(top[0], /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\+8$/);
  const text = await table.innerText();
  assert.ok(text.includes('GET /openapi/v1/sites'), text);
  await shot(page, 'en-log');

  // the result filter: errors only
  await page.getByTestId('filter-outcome').click();
  await page.locator('.ant-select-item-option', { hasText: 'Error' }).click();
  await page.getByTestId('list-search').click();
  await page.waitForURL('**outcome=error**');
  await rows.first().filter({ hasText: '40006' }).waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="openapi-requests"] tbody tr.ant-table-row').length === 1);
  await page.close();
});

test('the zh-CN console shows the OpenAPI screens in Chinese', async () => {
  const w = await localeFixture('zh-CN', ['--time-zone', 'America/New_York']);
  try {
    const app = await appWithCalls(w.server, w.root, '计费同步', 'sync_bot');
    const page = await w.browser.page();
    await signIn(page, w.server.url, ROOT_NAME, ROOT_PASSWORD, '/manage/system/openapi/list');
    await page.locator('[data-testid="openapi-apps"] tr', { hasText: '计费同步' }).waitFor();
    await page.getByText('近 7 天错误').first().waitFor();
    await shot(page, 'zh-list');
    await page.goto(`${w.server.url}/manage/system/openapi/logDetail/${app.id}/${app.appId}`);
    await page.getByText('各接口调用次数').waitFor();
    await page.getByRole('columnheader', { name: '调用方地址' }).waitFor();
    await page.getByTestId('openapi-requests').locator('tbody tr', { hasText: '40006' }).waitFor();
    await chartsDrawn(page);
    await defaultRangeIn(page, 'America/New_York', '日期（America/New_York）');
    await page.getByTestId('openapi-total-calls').filter({ hasText: '4' }).waitFor();
    await shot(page, 'zh-log');
  } finally {
    await w.browser.close();
    await w.server.stop();
  }
});
