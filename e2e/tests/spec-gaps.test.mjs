// Issue 29, "the specification's last gaps", console side: in headless Chromium, in en-US and
// zh-CN, as root and as a limited role (a customer-staff-like role: the user area with
// "Customers and sites" but not "User data authorisation", and the device page through
// auth_device_info only):
// - the "Customers and sites" link opens its page, not "No access";
// - auth_device_info alone opens the device page;
// - a refused page answers "No access" at its own address and keeps its history tab;
// - a selection button clicked with nothing selected says "Select an item, group or params first";
// - an HTTP 503 from the API (injected by the test) shows "The network is busy";
// - the blacklist shows its breadcrumb; the favicon is faviconEN.svg.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, Api, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const TEXT = {
  'en-US': {
    assign: 'Customers and sites', roleList: 'Role list', selectFirst: 'Select an item, group or params first',
    busy: 'The network is busy', system: 'System', blacklist: 'Device blacklist', menu: 'Menus and interfaces',
  },
  'zh-CN': {
    assign: '客户与站点', roleList: '角色列表', selectFirst: '请先选择条目、分组或参数',
    busy: '网络繁忙', system: '系统', blacklist: '设备黑名单', menu: '菜单与接口',
  },
};
const STAFF = { name: 'gap_staff', password: 'Gap#Staff1234' };
const STAFF_KEYS = ['auth_my', 'auth_system', 'auth_user', 'auth_user_list', 'auth_user_detail', 'auth_user_customerStationList', 'auth_device', 'auth_device_info'];

let server;
let root;
let device;
let targetId;

before(async () => {
  server = await startServer();
  root = await new Api(server.url).login(ROOT_NAME, ROOT_PASSWORD);
  await root.acceptPrivacy();
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Gap Co', code: 'GAPCO' });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: 'Gap Yard', code: 'GAP-01' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'GAP-AC-7', deviceType: 1 });
  device = await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: 'GAP-CP-0001', name: 'Gap bay', modelId: model.id, siteId: site.id, maintenanceCycle: 90 });
  // like the demo's customer staff: a role of the customer's own users, holding STAFF_KEYS
  const role = await root.must('POST', '/api/auth/sys/role/add', { name: 'Gap staff' });
  await root.must('POST', '/api/auth/sys/role/auth/menu', { id: role.id, keys: STAFF_KEYS });
  await root.must('POST', '/api/auth/sys/role/auth/data', {
    id: role.id, customerAccess: 1, siteAccess: 0, webSshAccess: 0, webSshLevel: 0, cfgReadLevel: 0, cfgWriteLevel: 0,
    cfgDownloadLevel: 0, paramLevel: 0, docLevel: 0, attachLevel: 0, emailAlarm: false, userAccess: false,
  });
  for (const name of [STAFF.name, 'gap_target']) {
    const k = await root.key();
    const u = await root.must('POST', '/api/auth/sys/user/add', {
      userName: name, keyId: k.keyId, password: await k.fresh(STAFF.password), roleId: role.id, customerId: customer.id, email: `${name}@example.com`,
    });
    if (name === 'gap_target') targetId = u.id;
  }
  await (await new Api(server.url).login(STAFF.name, STAFF.password)).acceptPrivacy();
});

const browsers = {};

after(async () => {
  for (const b of Object.values(browsers)) await b.close();
  await server?.stop();
});

/** A signed-in page in the locale's browser (one browser per locale, cookies cleared between users). */
async function session(locale, name, password) {
  if (!browsers[locale]) {
    browsers[locale] = await openBrowser(locale);
    await browsers[locale].context.addInitScript((l) => localStorage.setItem('chargeops_locale', l), locale);
  }
  const { context } = browsers[locale];
  await context.clearCookies();
  const page = await context.newPage();
  await signIn(page, server.url, name, password);
  await page.waitForURL('**/manage/**');
  await page.getByTestId('sidebar').waitFor();
  return page;
}

for (const locale of ['en-US', 'zh-CN']) {
  const T = TEXT[locale];

  test(`${locale}, limited role: Customers and sites opens, the device page opens with auth_device_info, a refused page keeps its tab`, async () => {
    const page = await session(locale, STAFF.name, STAFF.password);
    try {
      // item 1: the link on the user list and the page agree
      await page.goto(`${server.url}/manage/system/user/list`);
      const link = page.getByTestId('user-list').getByRole('link', { name: T.assign }).first();
      await link.waitFor();
      await link.click();
      await page.getByTestId('user-auth').waitFor();
      assert.match(page.url(), /\/manage\/system\/user\/auth\/\d+$/);
      assert.equal(await page.getByTestId('page-noauth').count(), 0);
      await page.goto(`${server.url}/manage/system/user/auth/${targetId}`);
      await page.getByTestId('user-auth').waitFor();

      // item 1: auth_device_info alone has the device page
      await page.goto(`${server.url}/manage/device/detail/${device.id}`);
      await page.getByTestId('device-detail').getByText('GAP-CP-0001').first().waitFor();
      assert.equal(await page.getByTestId('page-noauth').count(), 0);

      // item 8: a refused page answers No access where it is and stays in the history tabs
      await page.goto(`${server.url}/manage/system/role/list`);
      await page.getByTestId('page-noauth').waitFor();
      assert.ok(page.url().endsWith('/manage/system/role/list'), page.url());
      const tabs = page.getByTestId('history-tabs');
      await tabs.getByText(T.roleList, { exact: true }).waitFor();
      await page.goto(`${server.url}/manage/my`);
      await tabs.getByText(T.roleList, { exact: true }).waitFor();
      await tabs.getByText(T.roleList, { exact: true }).click();
      await page.waitForURL('**/manage/system/role/list');
      await page.getByTestId('page-noauth').waitFor();
    } finally {
      await page.close();
    }
  });

  test(`${locale}, root: select-first prompt, network busy, blacklist breadcrumb, favicon`, async () => {
    const page = await session(locale, ROOT_NAME, ROOT_PASSWORD);
    try {
      // item 3: the batch button with nothing selected prompts instead of doing nothing
      await page.goto(`${server.url}/manage/device/list`);
      await page.getByTestId('device-list').getByText('GAP-CP-0001').waitFor();
      const batch = page.getByTestId('device-batch');
      assert.equal(await batch.isDisabled(), false);
      await batch.click();
      await page.locator('.ant-message').getByText(T.selectFirst).waitFor();
      assert.equal(await page.locator('.ant-modal:visible').count(), 0, 'no batch dialog without a selection');

      // item 4: the server (or a proxy) answering 503 → "The network is busy"
      await page.route('**/api/auth/sys/dev/basic/list', (r) => r.fulfill({ status: 503, contentType: 'text/html', body: '<html>overloaded</html>' }));
      await page.reload();
      await page.locator('.ant-message, .ant-notification').getByText(T.busy).first().waitFor();
      await page.unroute('**/api/auth/sys/dev/basic/list');

      // item 7: the blacklist's breadcrumb
      await page.goto(`${server.url}/manage/system/list`);
      const crumb = page.getByTestId('breadcrumb');
      await crumb.getByText(T.blacklist).waitFor();
      assert.match(await crumb.textContent(), new RegExp(`${T.system}\\s*/\\s*${T.blacklist}`));
      await page.goto(`${server.url}/manage/system/menu`);
      await page.getByTestId('menu-page').waitFor();
      // issue 30 item 15: every page below a menu group names where it is, with the menu's names
      assert.match(await page.getByTestId('breadcrumb').textContent(), new RegExp(`${T.system}\\s*/\\s*${T.menu}`));
      await page.goto(`${server.url}/manage/home`);
      await page.getByTestId('home-fault-totals').waitFor();
      assert.equal(await page.getByTestId('breadcrumb').count(), 0, 'a top-level page shows none');

      // item 6: the favicon
      assert.equal(await page.locator('link[rel="icon"]').getAttribute('href'), '/faviconEN.svg');
      const icon = await fetch(`${server.url}/faviconEN.svg`);
      assert.equal(icon.status, 200);
      assert.match(icon.headers.get('content-type') ?? '', /^image\/svg\+xml/);
      assert.match(await icon.text(), /^<svg /);
    } finally {
      await page.close();
    }
  });
}
