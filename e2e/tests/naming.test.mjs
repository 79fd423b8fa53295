// Issue 30 item 4 browser flow, one naming of events: an ocpp-rpc charger (strict mode) reports
// HighTemperature with its own vendor code E-207. Home (recent events), the system dashboard,
// the device page and the notification centre all show it as "High temperature · E-207"
// (zh-CN "温度过高 · E-207") at the same level "MA (major)" (zh-CN "MA（重要）"): one source of
// names and levels, translated, with the vendor's code beside the name.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { RPCClient } from 'ocpp-rpc';
import { localeFixture, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const SN = 'HK-KB-01-08';
const VENDOR = 'E-207';
const WANT = {
  'en-US': { name: 'High temperature', level: 'MA (major)' },
  'zh-CN': { name: '温度过高', level: 'MA（重要）' },
};

const open = [];
after(async () => {
  for (const x of open.reverse()) await x().catch(() => undefined);
});

const now = () => new Date().toISOString();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const flat = (s) => s.replace(/\s+/g, ' ').trim();

/** The event's name as shown in container, and the text of its table row. */
async function shown(page, container) {
  const name = page.locator(`${container} [data-testid="event-name"][data-code="HighTemperature"]`).first();
  await name.waitFor();
  return { name: flat(await name.innerText()), row: flat(await name.locator('xpath=ancestor::tr[1]').innerText()) };
}

for (const locale of Object.keys(WANT)) {
  test(`${locale}: home, system dashboard, device page and messages name one alarm the same, with the vendor code beside`, async () => {
    const { server, browser, root } = await localeFixture(locale);
    open.push(() => server.stop(), () => browser.close());
    const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Naming Co', code: 'NAMC' });
    const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: 'Kowloon Bay', code: 'NAM-S' });
    const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'NAM-AC-22', deviceType: 2 });
    const device = await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: SN, name: 'Bay 8', modelId: model.id, siteId: site.id, maintenanceCycle: 90 });

    const charger = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: SN, protocols: ['ocpp1.6'], strictMode: true, reconnect: false });
    open.push(() => charger.close({ force: true }));
    await charger.connect();
    await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'NAM-AC-22', firmwareVersion: '1.0.0' });
    await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available', timestamp: now() });
    await charger.call('StatusNotification', { connectorId: 1, errorCode: 'HighTemperature', vendorErrorCode: VENDOR, status: 'Available', timestamp: now() });

    // the notifier has written root's message
    const deadline = Date.now() + 20000;
    for (;;) {
      const l = await root.must('POST', '/api/auth/sys/message/list', { page: 1, pageSize: 20 });
      if (l.list.some((m) => m.sn === SN && m.code === 'HighTemperature')) break;
      if (Date.now() > deadline) assert.fail(`no message of ${SN}: ${JSON.stringify(l.list)}`);
      await sleep(200);
    }

    const page = await browser.page();
    await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD);
    await page.waitForURL('**/manage/**');
    const want = WANT[locale];
    const screens = [
      ['home recent events', '/manage/home', '[data-testid="home-recent-events"]'],
      ['system dashboard', '/manage/system/dashboard', '[data-testid="system-events"]'],
      ['device page', `/manage/device/detail/${device.id}`, '[data-testid="device-alarms"]'],
      ['notification centre', '/manage/message/list', '[data-testid="message-list"]'],
    ];
    for (const [what, path, container] of screens) {
      await page.goto(server.url + path);
      const got = await shown(page, container);
      if (process.env.SHOTS_DIR) {
        await page.locator(container).screenshot({ path: `${process.env.SHOTS_DIR}/naming-${what.replace(/ /g, '-')}-${locale}.png` });
      }
      assert.equal(got.name, `${want.name} · ${VENDOR}`, `${what}: the name`);
      assert.ok(got.row.includes(want.level), `${what}: the level ${want.level} in the row "${got.row}"`);
      assert.ok(!/HighTemperature/.test(got.row), `${what}: the OCPP code instead of a name in "${got.row}"`);
    }
  });
}
