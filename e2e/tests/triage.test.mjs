// Issue 30 item 3 browser flow, notifications as a triage list: a charger flaps (Faulted with
// HighTemperature, then Available, again and again, each flap outside a 1 s repeat window). The
// bell counts one new row, not one per flap; the live notice names the charger, its site and
// the alarm; the notification centre shows one row per device and alarm with its repeats,
// newest (latest repeat) first, and sorts by first time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { RPCClient } from 'ocpp-rpc';
import { setUp, tearDown, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const SN = 'HK-KB-01-08';
const SITE = 'Kowloon Bay';
const FLAPS = 5;

let w;
let charger;

before(async () => {
  w = await setUp('triage', ['--alarm-repeat-window', '1s']);
  await w.browser.context.addInitScript(() => {
    if (!localStorage.getItem('chargeops_locale')) localStorage.setItem('chargeops_locale', 'en-US');
  });
});

after(async () => {
  await charger?.close({ force: true }).catch(() => undefined);
  await tearDown(w);
});

const now = () => new Date().toISOString();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function bellCount(page) {
  const v = await page.getByTestId('message-bell').getAttribute('data-count');
  return v === '' || v === null ? undefined : Number(v);
}

/** Polls root's messages of the charger until ok(rows). */
async function rowsUntil(ok, what) {
  const deadline = Date.now() + 20000;
  let rows = [];
  while (Date.now() < deadline) {
    rows = (await w.root.must('POST', '/api/auth/sys/message/list', { page: 1, pageSize: 50 })).list.filter((m) => m.sn === SN);
    if (ok(rows)) return rows;
    await sleep(200);
  }
  assert.fail(`messages of ${SN}: ${JSON.stringify(rows)}; want ${what}`);
}

test('a flapping charger is one row and one notice that names it; the list is newest first and sortable', async () => {
  const { server, root, browser } = w;
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Triage Co', code: 'TRIC' });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: SITE, code: 'TRI-S' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'TRI-AC-22', deviceType: 2 });
  // an alarm document typed in English names the alarm for its cause and remedy
  const category = await root.must('POST', '/api/auth/sys/article/category/add', { name: 'Alarm manuals', description: 'e2e' });
  await root.must('POST', '/api/auth/sys/article/add', {
    categoryId: category.id, title: 'Overheat recovery', name: 'Overheat recovery', type: 100, readLevel: 5, writeLevel: 5, status: 1,
    modelId: model.id, alarmCodes: ['HighTemperature'],
  });
  const device = await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: SN, name: 'Bay 8', modelId: model.id, siteId: site.id, maintenanceCycle: 90 });

  charger = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: SN, protocols: ['ocpp1.6'], strictMode: true, reconnect: false });
  await charger.connect();
  await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'TRI-AC-22', firmwareVersion: '1.0.0' });
  await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available', timestamp: now() });

  const page = await browser.page();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD);
  await page.waitForURL('**/manage/**');
  await page.waitForFunction(() => document.querySelector('[data-testid="message-bell"]')?.getAttribute('data-live') === '1');
  const start = await bellCount(page);
  // record every notice shown (the notice lasts 5 s; the flaps take longer)
  await page.evaluate(() => {
    window.__notices = [];
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid="message-notice"]')) {
        if (!el.__seen) {
          el.__seen = true;
          window.__notices.push(el.textContent);
        } else if (window.__notices.at(-1) !== el.textContent) window.__notices.push(el.textContent);
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });

  // the charger flaps, each flap after the repeat window
  for (let i = 0; i < FLAPS; i++) {
    await charger.call('StatusNotification', { connectorId: 1, errorCode: 'HighTemperature', status: 'Faulted', timestamp: now() });
    await sleep(400);
    await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available', timestamp: now() });
    await sleep(1100);
  }
  const [hot] = await rowsUntil((r) => r.length >= 1 && r.reduce((n, m) => n + m.repeats + 1, 0) >= FLAPS, `${FLAPS} flaps`);
  const rows = await rowsUntil(() => true, 'rows');
  assert.equal(rows.length, 1, `one row for ${FLAPS} flaps of one alarm, got ${rows.length}`);
  assert.equal(hot.repeats, FLAPS - 1);
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid="message-bell"]')?.getAttribute('data-count')) === n, start + 1);

  // one notice for the burst, and it says what happened
  const notices = await page.evaluate(() => window.__notices);
  assert.equal(notices.length, 1, `notices: ${JSON.stringify(notices)}`);
  assert.match(notices[0], /^HK-KB-01-08 at Kowloon Bay: High temperature \(CA\)/, notices[0]);

  // another alarm on the same charger, then the first one again: the first is the newest news
  await charger.call('StatusNotification', { connectorId: 2, errorCode: 'GroundFailure', status: 'Faulted', timestamp: now() });
  await rowsUntil((r) => r.length === 2, 'two rows');
  await sleep(1100);
  await charger.call('StatusNotification', { connectorId: 1, errorCode: 'HighTemperature', status: 'Faulted', timestamp: now() });
  await rowsUntil((r) => r.some((m) => m.code === 'HighTemperature' && m.repeats === FLAPS), 'the repeat');

  await page.goto(`${server.url}/manage/message/list`);
  const names = page.locator('[data-testid="message-list"] .ant-table-row [data-testid="message-name"]');
  await names.nth(1).waitFor();
  assert.match(await names.nth(0).innerText(), /High temperature/);
  assert.match(await names.nth(1).innerText(), /Ground failure/i);
  assert.equal((await page.locator('[data-testid="message-list"] .ant-table-row [data-testid="message-repeats"]').first().innerText()).trim(), String(FLAPS));

  // sorted by first time, oldest first: the high temperature row started first
  await page.locator('[data-testid="message-list"] th.ant-table-column-has-sorters', { hasText: /^Time\s*(UTC[+-]?[\d:]*)?$/ }).first().click();
  await page.waitForURL(/sort=startedAt/);
  await page.waitForFunction(() => /High temperature/.test(document.querySelector('[data-testid="message-list"] .ant-table-row [data-testid="message-name"]')?.textContent ?? ''));
  await page.locator('[data-testid="message-list"] th.ant-table-column-has-sorters', { hasText: /^Time\s*(UTC[+-]?[\d:]*)?$/ }).first().click();
  await page.waitForURL(/sort=-startedAt/);
  await page.waitForFunction(() => /Ground failure/i.test(document.querySelector('[data-testid="message-list"] .ant-table-row [data-testid="message-name"]')?.textContent ?? ''));

  // zh-CN: the device page names the alarm in Chinese (the document's English title only as
  // the link's tooltip), with the charger's code beside
  await page.evaluate(() => localStorage.setItem('chargeops_locale', 'zh-CN'));
  await page.goto(`${server.url}/manage/device/detail/${device.id}`);
  const hotName = page.locator('[data-testid="device-alarms"] [data-testid="event-name"][data-code="HighTemperature"]').first();
  await hotName.waitFor();
  const text = await hotName.innerText();
  assert.match(text, /^温度过高 · HighTemperature$/, text);
  assert.equal(await hotName.getByTestId('event-doc-link').getAttribute('title'), 'Overheat recovery');
});
