// Issue 30 items 16 and 17 in Chromium, in both languages. A site admin (the demo's "Site
// admin": device edit, no delete, limited to one site) reboots a charger of their own site (an
// npm ocpp-rpc client in strict mode) and is refused another site's; the reboot opens no
// Offline event; the site's Events tab lists the charger's fault as home does (it used to ask
// for offline and unavailable events only and showed nothing); the device page offers no
// Delete without auth_device_delete; the user list offers no Disable on one's own row.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { RPCClient } from 'ocpp-rpc';
import { Api, localeFixture, signIn } from '../lib.mjs';

const shots = process.env.CHARGEOPS_E2E_SHOTS;
const PASSWORD = 'Roles#Pass123';
const TEXT = {
  'en-US': { fault: 'Fault', offline: 'Offline', password: 'Password', edit: /^Edit$/, delete: /^Delete$/, disable: 'Disable' },
  // antd spaces out a two-character Chinese button label ("删 除")
  'zh-CN': { fault: '故障', offline: '离线', password: '密码', edit: /^编\s?辑$/, delete: /^删\s?除$/, disable: '禁用' },
};

for (const locale of ['en-US', 'zh-CN']) {
  describe(locale, () => {
    const L = TEXT[locale];
    const tag = locale === 'en-US' ? 'EN' : 'ZH';
    let server;
    let browser;
    let root;
    const chargers = [];

    before(async () => {
      ({ server, browser, root } = await localeFixture(locale));
    });

    after(async () => {
      for (const c of chargers) await c.close({ force: true }).catch(() => undefined);
      await browser?.close();
      await server?.stop();
    });

    const connect = async (sn) => {
      const c = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: sn, protocols: ['ocpp1.6'], strictMode: true, reconnect: false });
      c.handle('Reset', () => ({ status: 'Accepted' }));
      chargers.push(c);
      await c.connect();
      const b = await c.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'ROLES-AC' });
      assert.equal(b.status, 'Accepted');
      return c;
    };
    const status = (c, s, errorCode = 'NoError') => c.call('StatusNotification', { connectorId: 1, errorCode, status: s, timestamp: new Date().toISOString() });
    const until = async (what, fn) => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        if (await fn()) return;
        if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };

    test(`a site admin reboots their own site's charger; no outage; the site's Events tab lists its fault (${locale})`, async () => {
      const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: `Roles ${tag}`, code: `ROLES${tag}` });
      const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: `Roles Yard ${tag}`, code: `RY-${tag}` });
      const other = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: `Roles Depot ${tag}`, code: `RD-${tag}` });
      const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: `ROLES-AC-${tag}`, deviceType: 1 });
      const sn = `E2E-ROLES-${tag}`;
      const device = await root.must('POST', '/api/auth/sys/dev/basic/add', { sn, name: 'Roles bay', modelId: model.id, siteId: site.id });
      const far = await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: `${sn}-FAR`, name: 'Far bay', modelId: model.id, siteId: other.id });

      // a site admin as the demo makes them: no auth_device_delete, limited to `site`
      const role = await root.must('POST', '/api/auth/sys/role/add', { name: `site admin ${tag}`, customerId: customer.id });
      await root.must('POST', '/api/auth/sys/role/auth/menu', { id: role.id, keys: ['auth_home', 'auth_site', 'auth_site_list', 'auth_site_detail',
        'auth_device', 'auth_device_list', 'auth_device_info', 'auth_device_detail', 'auth_device_edit', 'auth_system', 'auth_user', 'auth_user_list', 'auth_user_edit'] });
      await root.must('POST', '/api/auth/sys/role/auth/data', { id: role.id, customerAccess: 1, siteAccess: 1 });
      const name = `roles_site_${tag.toLowerCase()}`;
      const k = await root.key();
      const user = await root.must('POST', '/api/auth/sys/user/add', { userName: name, keyId: k.keyId, password: await k.fresh(PASSWORD), roleId: role.id, customerId: customer.id });
      await root.must('POST', '/api/auth/sys/user/assign', { id: user.id, siteIds: [site.id] });
      const admin = await new Api(server.url).login(name, PASSWORD);
      await admin.acceptPrivacy();

      // the charger faults once, then is fine
      let charger = await connect(sn);
      await status(charger, 'Faulted', 'GroundFailure');
      await status(charger, 'Available');

      // the site admin reboots it: accepted; another site's charger is refused
      const sent = await admin.must('POST', '/api/auth/sys/dev/control/send', { deviceIds: [device.id], controlType: 1, params: {} });
      await until('the reset accepted', async () => (await admin.must('GET', `/api/auth/sys/dev/control/detail?id=${sent.commands[0].id}`)).result === 2);
      const refused = await admin.call('POST', '/api/auth/sys/dev/control/send', { deviceIds: [far.id], controlType: 1, params: {} });
      assert.notEqual(refused.code, 0, 'the site admin rebooted another site\'s charger');
      const deleted = await admin.call('POST', '/api/auth/sys/dev/basic/delete', { ids: [device.id] });
      assert.equal(deleted.code, 20013, 'the site admin deleted a device');

      // it reboots: drops the connection, comes back, boots
      await charger.close({ force: true });
      await until('offline', async () => (await root.must('GET', `/api/auth/sys/dev/basic/detail?id=${device.id}`)).status === 0);
      charger = await connect(sn);
      await status(charger, 'Available');
      await until('back', async () => (await root.must('GET', `/api/auth/sys/dev/basic/detail?id=${device.id}`)).status === 1);
      const offline = await root.must('POST', '/api/auth/sys/dev/alarm/list', { deviceId: device.id, kinds: [0] });
      assert.equal(offline.total, 0, 'the console reboot opened an Offline event');

      await browser.context.clearCookies();
      const page = await browser.context.newPage();
      const fail = async (e, what) => {
        if (shots) await page.screenshot({ path: join(shots, `roles-${what}-${locale}.png`), timeout: 60_000 });
        throw e;
      };
      await signIn(page, server.url, name, PASSWORD);
      await page.waitForURL('**/manage/**');

      // the site's Events tab: the fault, as on home; no Offline row
      await page.goto(`${server.url}/manage/site/detail/${site.id}`);
      await page.locator('.ant-tabs-tab[data-node-key=events]').click();
      const events = page.getByTestId('site-events');
      await events.locator('.ant-table-row').filter({ hasText: sn }).filter({ hasText: L.fault }).first().waitFor({ timeout: 30_000 }).catch((e) => fail(e, 'site-events'));
      assert.equal(await events.locator('.ant-table-row').filter({ hasText: L.offline }).count(), 0, 'an Offline row on the site Events tab');

      // the device page: edit, no delete
      await page.goto(`${server.url}/manage/device/detail/${device.id}`);
      await page.getByTestId('device-header').waitFor();
      const detail = page.getByTestId('device-detail');
      await detail.getByRole('button', { name: L.edit }).waitFor(); // the header's actions are there
      assert.equal(await detail.getByRole('button', { name: L.delete }).count(), 0, 'Delete offered without auth_device_delete');

      // the user list: no Disable on one's own row
      await page.goto(`${server.url}/manage/system/user/list`);
      const own = page.getByTestId('user-list').locator('.ant-table-row').filter({ hasText: name });
      await own.getByText(L.password, { exact: true }).waitFor(); // the row's actions are there
      assert.equal(await own.getByText(L.disable, { exact: true }).count(), 0, 'Disable offered on one\'s own row');
      await page.close();
    });
  });
}
