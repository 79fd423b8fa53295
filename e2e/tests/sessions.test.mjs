// Issue 22 browser flow, charging sessions (docs/sessions.md): two chargers of two customers
// (ocpp-rpc, strict mode) each charge a session (Start, MeterValues with the transactionId,
// Stop) and one keeps charging. Root lists every session, opens one (energy in kWh, duration,
// the meter timeline) and exports the list as xlsx; a customer-limited user, in Chinese, sees
// only its customer's sessions. Screens are shot in en-US and zh-CN (/tmp/chargeops-sessions-shots/).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { RPCClient } from 'ocpp-rpc';
import { startServer, openBrowser, Api, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const SN_A = 'SESS-CP-A01';
const SN_B = 'SESS-CP-B01';
const LIMITED = 'alpha_sessions';
const LIMITED_PASSWORD = 'Alpha#Sess123';
const SHOTS = '/tmp/chargeops-sessions-shots';

let server;
let browser;
let root;
const chargers = [];

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
  for (const c of chargers) await c.close({ force: true }).catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

const iso = (ms) => new Date(ms).toISOString();

/** The text of each row of an xlsx file's first sheet (a zip holding xl/worksheets/sheet1.xml). */
function xlsxRows(buf) {
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

/** Connects sn and charges one session of whMeter Wh between start and stop (ms), sampling energy and power. */
async function chargeSession(sn, tag, start, stop, wh) {
  const c = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: sn, protocols: ['ocpp1.6'], strictMode: true, reconnect: false });
  chargers.push(c);
  await c.connect();
  await c.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'SESS-AC-22', firmwareVersion: '1.0.0' });
  const { transactionId } = await c.call('StartTransaction', { connectorId: 1, idTag: tag, meterStart: 1000, timestamp: iso(start) });
  for (let i = 1; i <= 4; i++) {
    const at = start + ((stop - start) * i) / 5;
    await c.call('MeterValues', {
      connectorId: 1,
      transactionId,
      meterValue: [
        {
          timestamp: iso(at),
          sampledValue: [
            { value: String(1000 + Math.round((wh * i) / 5)), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
            { value: '7200', measurand: 'Power.Active.Import', unit: 'W' },
          ],
        },
      ],
    });
  }
  await c.call('StopTransaction', { transactionId, meterStop: 1000 + wh, timestamp: iso(stop), reason: 'Remote' });
  return { charger: c, transactionId };
}

async function rowCount(page) {
  return page.locator('[data-testid="sessions"] .ant-table-tbody tr.ant-table-row').count();
}

test('root lists, opens and exports sessions; a customer-limited user sees only its own, in Chinese', async () => {
  const custA = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Alpha Charging', code: 'ALPHA' });
  const custB = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Beta Energy', code: 'BETA' });
  const siteA = await root.must('POST', '/api/auth/sys/site/add', { customerId: custA.id, name: 'Alpha Yard', code: 'A-Y' });
  const siteB = await root.must('POST', '/api/auth/sys/site/add', { customerId: custB.id, name: 'Beta Yard', code: 'B-Y' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'SESS-AC-22', deviceType: 2 });
  await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: SN_A, name: 'Alpha Bay', modelId: model.id, siteId: siteA.id });
  await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: SN_B, name: 'Beta Bay', modelId: model.id, siteId: siteB.id });

  const now = Date.now();
  const a = await chargeSession(SN_A, 'TAG-ALPHA', now - 50 * 60_000, now - 5 * 60_000, 12_500);
  await chargeSession(SN_B, 'TAG-BETA', now - 40 * 60_000, now - 10 * 60_000, 3_000);
  // A's charger starts another session and keeps charging
  await a.charger.call('StartTransaction', { connectorId: 1, idTag: 'TAG-ALPHA', meterStart: 13_500, timestamp: iso(now - 60_000) });

  // a customer-limited role: A's sessions, list and export
  const role = await root.must('POST', '/api/auth/sys/role/add', { name: 'Alpha session viewers', customerId: custA.id });
  await root.must('POST', '/api/auth/sys/role/auth/menu', { id: role.id, keys: ['auth_session', 'auth_session_list', 'auth_session_export', 'auth_my'] });
  await root.must('POST', '/api/auth/sys/role/auth/data', {
    id: role.id, customerAccess: 1, siteAccess: 0, webSshAccess: 0, webSshLevel: 5, cfgReadLevel: 5, cfgWriteLevel: 5,
    cfgDownloadLevel: 5, paramLevel: 5, docLevel: 5, attachLevel: 5, emailAlarm: false, userAccess: false,
  });
  const k = await root.key();
  await root.must('POST', '/api/auth/sys/user/add', {
    userName: LIMITED, keyId: k.keyId, password: await k.fresh(LIMITED_PASSWORD), roleId: role.id, customerId: custA.id, email: `${LIMITED}@example.com`,
  });
  await (await new Api(server.url).login(LIMITED, LIMITED_PASSWORD)).acceptPrivacy();

  // root: every session, newest first, from the sidebar
  const page = await browser.page();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD);
  await page.waitForURL('**/manage/**');
  await page.locator('.ant-menu-item', { hasText: 'Charging sessions' }).click();
  await page.waitForURL('**/manage/session/list');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="sessions"] .ant-table-tbody tr.ant-table-row').length === 3, null, { timeout: 20000 });
  const rows = page.locator('[data-testid="sessions"] .ant-table-tbody tr.ant-table-row');
  assert.match(await rows.nth(0).innerText(), new RegExp(`${SN_A}[\\s\\S]*Charging`));
  assert.match(await rows.nth(1).innerText(), new RegExp(`Beta Energy[\\s\\S]*${SN_B}[\\s\\S]*0:30:00[\\s\\S]*3\\.00 kWh`));
  const ended = await rows.nth(2).innerText();
  assert.match(ended, new RegExp(`Alpha Charging[\\s\\S]*${SN_A}[\\s\\S]*TAG-ALPHA[\\s\\S]*Ended[\\s\\S]*0:45:00[\\s\\S]*12\\.50 kWh[\\s\\S]*Remote`));
  await page.screenshot({ path: `${SHOTS}/sessions-list-en.png`, fullPage: true });

  // the state filter keeps the ended sessions; it is in the URL
  await page.locator('.ant-form-item', { hasText: 'State' }).locator('.ant-select').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Ended' }).click();
  await page.getByTestId('sessions-search').click();
  await page.waitForURL(/state=ended/);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="sessions"] .ant-table-tbody tr.ant-table-row').length === 2);

  // the detail: kWh, duration, reason, the timeline; a stop button only while charging
  await rows.nth(1).locator('a', { hasText: String(a.transactionId) }).click();
  const detail = page.getByTestId('session-detail');
  await detail.waitFor();
  assert.equal(await page.getByTestId('session-energy').innerText(), '12.50 kWh');
  const text = await detail.innerText();
  assert.match(text, /0:45:00/);
  assert.match(text, /Remote/);
  await page.locator('[data-testid="session-timeline"] canvas').waitFor({ timeout: 20000 });
  assert.equal(await page.getByTestId('session-stop').count(), 0, 'no stop button on an ended session');
  await page.screenshot({ path: `${SHOTS}/session-detail-en.png` });
  await page.locator('.ant-drawer-close').click();

  // the charging session offers the stop button to root (remote start/stop key)
  await page.goto(`${server.url}/manage/session/list?state=charging`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="sessions"] .ant-table-tbody tr.ant-table-row').length === 1, null, { timeout: 20000 });
  await rows.first().locator('a').first().click();
  await page.getByTestId('session-detail').waitFor();
  await page.getByTestId('session-stop').getByRole('button', { name: 'Stop charging' }).waitFor();
  assert.equal(await page.getByTestId('session-energy').innerText(), '-');
  await page.screenshot({ path: `${SHOTS}/session-charging-en.png` });
  await page.locator('.ant-drawer-close').click();

  // the device page's tab: the device's sessions only
  const devices = await root.must('POST', '/api/auth/sys/dev/basic/list', { keyword: SN_A, page: 1, pageSize: 10 });
  await page.goto(`${server.url}/manage/device/detail/${devices.list[0].id}/charging`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-tab"] .ant-table-tbody tr.ant-table-row').length === 2, null, { timeout: 20000 });
  assert.ok(!(await page.getByTestId('session-tab').innerText()).includes(SN_B));
  await page.screenshot({ path: `${SHOTS}/device-sessions-tab-en.png`, fullPage: true });

  // the export: an xlsx of the filtered (ended) sessions
  await page.goto(`${server.url}/manage/session/list?state=ended`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="sessions"] .ant-table-tbody tr.ant-table-row').length === 2, null, { timeout: 20000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('sessions-export').click()]);
  assert.equal(download.suggestedFilename(), 'charging-sessions.xlsx');
  const sheet = xlsxRows(readFileSync(await download.path()));
  assert.equal(sheet.length, 3, `header and two ended sessions: ${JSON.stringify(sheet)}`);
  assert.equal(sheet[0][0], 'Session ID');
  assert.deepEqual([sheet[2][1], sheet[2][5], sheet[2][6], sheet[2][12], sheet[2][13]], [SN_A, 'TAG-ALPHA', 'Ended', '12.5', 'Remote']);
  assert.equal(sheet[1][1], SN_B);

  // the customer-limited user, in Chinese: A's two sessions only
  const zh = await openBrowser('zh-CN');
  try {
    await zh.context.addInitScript(() => localStorage.setItem('chargeops_locale', 'zh-CN'));
    const p = await zh.page();
    await signIn(p, server.url, LIMITED, LIMITED_PASSWORD, '/manage/session/list');
    await p.waitForFunction(() => document.querySelectorAll('[data-testid="sessions"] .ant-table-tbody tr.ant-table-row').length === 2, null, { timeout: 20000 });
    const seen = (await p.locator('[data-testid="sessions"] .ant-table-tbody').innerText());
    assert.ok(seen.includes(SN_A) && !seen.includes(SN_B), `limited user sees ${seen}`);
    assert.match(seen, /充电中/);
    assert.equal(await rowCount(p), 2);
    await p.getByText('停止原因').first().waitFor();
    await p.screenshot({ path: `${SHOTS}/sessions-list-zh.png`, fullPage: true });
    await p.locator('[data-testid="sessions"] .ant-table-tbody tr.ant-table-row').nth(1).locator('a').first().click();
    await p.getByTestId('session-detail').waitFor();
    await p.locator('[data-testid="session-timeline"] canvas').waitFor({ timeout: 20000 });
    await p.getByText('计量曲线').waitFor();
    await p.screenshot({ path: `${SHOTS}/session-detail-zh.png` });
    // its charging session has no stop button: it does not hold the remote start/stop key
    await p.locator('.ant-drawer-close').click();
    await p.locator('[data-testid="sessions"] .ant-table-tbody tr.ant-table-row').nth(0).locator('a').first().click();
    await p.getByTestId('session-detail').getByText('充电中').waitFor();
    assert.equal(await p.getByTestId('session-stop').count(), 0, 'no stop button without the remote start/stop key');
    // another customer's session is not found for it
    const limited = await new Api(server.url).login(LIMITED, LIMITED_PASSWORD);
    const all = await root.must('POST', '/api/auth/sys/session/list', { sn: SN_B });
    const other = await limited.call('GET', `/api/auth/sys/session/detail?id=${all.list[0].id}`);
    assert.notEqual(other.code, 0, 'B\'s session is not found for A\'s user');
  } finally {
    await zh.close();
  }
});
