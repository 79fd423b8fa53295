// Issue 30 (items 5, 14, 15): the console shell during an incident, in Chromium. A deliberate
// sign-out goes straight to the login page with no timeout dialog; a real timeout shows one
// themed dialog.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { RPCClient } from 'ocpp-rpc';
import { setUp, tearDown, startServer, Api, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

/** The console's primary colour (web/src/theme.ts) as the browser computes it. */
const PRIMARY = 'rgb(11, 122, 90)';

describe('incident shell', () => {
  let w;
  before(async () => {
    w = await setUp('incident-shell');
  });
  after(async () => {
    await tearDown(w);
  });

  test('sign-out goes straight to the login page, with no session-timeout dialog', async () => {
    const page = await w.browser.context.newPage();
    await signIn(page, w.server.url, ROOT_NAME, ROOT_PASSWORD);
    await page.waitForURL('**/manage/home');
    await page.getByTestId('sidebar').waitFor();
    // Calls still in flight when the session ends: held until the sign-out has been answered,
    // then the server answers them "session expired" (20001).
    let release;
    const signedOut = new Promise((r) => (release = r));
    let held = 0;
    await page.route('**/api/auth/**', async (route) => {
      held++;
      await signedOut;
      await route.continue();
    });
    await page.getByTestId('sidebar').getByText('Sites', { exact: true }).first().click();
    for (let i = 0; i < 50 && held === 0; i++) await page.waitForTimeout(100);
    assert.ok(held > 0, 'a call is in flight during the sign-out');
    const loggedOut = page.waitForResponse('**/api/unauth/logout');
    await page.getByTestId('user-menu').hover();
    await page.getByTestId('user-menu-logout').click();
    await loggedOut;
    release();
    await page.waitForURL('**/login**');
    await page.getByTestId('login-username').waitFor();
    await page.waitForTimeout(1500);
    assert.equal(await page.getByTestId('session-expired-dialog').count(), 0, 'no timeout dialog after a sign-out');
    await page.close();
  });

  test('a real timeout shows one themed dialog', async () => {
    const short = await startServer(['--session-idle', '2s']);
    try {
      await (await new Api(short.url).login(ROOT_NAME, ROOT_PASSWORD)).acceptPrivacy();
      const page = await w.browser.context.newPage();
      await signIn(page, short.url, ROOT_NAME, ROOT_PASSWORD);
      await page.waitForURL('**/manage/home');
      await page.getByTestId('sidebar').waitFor();
      await page.waitForTimeout(2500);
      await page.getByTestId('sidebar').getByText('Sites', { exact: true }).first().click();
      await page.getByTestId('session-expired-dialog').waitFor();
      await page.waitForTimeout(800);
      assert.equal(await page.getByTestId('session-expired-dialog').count(), 1, 'one dialog');
      const bg = await page.getByTestId('session-expired-ok').evaluate((el) => getComputedStyle(el).backgroundColor);
      assert.equal(bg, PRIMARY, 'the dialog wears the console theme');
      await page.getByTestId('session-expired-ok').click();
      await page.waitForURL('**/login**');
      await page.close();
    } finally {
      await short.stop();
    }
  });

  test('new chargers: a banner on the device list says how many wait, with add one click away (platform users only)', async () => {
    const sns = ['NEW-CP-0001', 'NEW-CP-0002', 'NEW-CP-0003'];
    for (const sn of sns) {
      const knock = new RPCClient({ endpoint: `${w.server.url.replace('http', 'ws')}/ocpp`, identity: sn, protocols: ['ocpp1.6'], reconnect: false });
      await assert.rejects(knock.connect(), undefined, `${sn} is unknown`);
    }
    await w.browser.context.clearCookies();
    const page = await w.browser.context.newPage();
    await signIn(page, w.server.url, ROOT_NAME, ROOT_PASSWORD, '/manage/device/list');
    const banner = page.getByTestId('pending-banner');
    await banner.waitFor();
    assert.match(await banner.innerText(), /3 chargers waiting to be added/);
    await page.getByTestId('pending-banner-add-NEW-CP-0002').click();
    await page.waitForURL('**/manage/device/add/NEW-CP-0002');
    await page.goto(`${w.server.url}/manage/device/list`);
    await page.getByTestId('pending-banner-all').click();
    await page.waitForURL('**/manage/system/list?tab=pending');
    await page.getByTestId('pending-add-NEW-CP-0001').waitFor();
    await page.close();

    // a customer's user holding the same keys sees no banner: pending SNs are platform data
    const c = await w.root.must('POST', '/api/auth/sys/customer/add', { name: 'Banner Co', code: 'BANNERCO' });
    const role = await w.root.must('POST', '/api/auth/sys/role/add', { name: 'banner role', customerId: c.id });
    await w.root.must('POST', '/api/auth/sys/role/auth/menu', { id: role.id, keys: ['auth_device', 'auth_device_list', 'auth_device_add', 'auth_device_detail', 'auth_system', 'auth_black_device', 'auth_my'] });
    await w.root.must('POST', '/api/auth/sys/role/auth/data', { id: role.id, customerAccess: 1, siteAccess: 0, webSshAccess: 0, webSshLevel: 5, cfgReadLevel: 5, cfgWriteLevel: 5, cfgDownloadLevel: 5, paramLevel: 5, docLevel: 5, attachLevel: 5, emailAlarm: false, userAccess: false });
    const k = await w.root.key();
    await w.root.must('POST', '/api/auth/sys/user/add', { userName: 'banner_staff', keyId: k.keyId, password: await k.fresh('Banner#Staff123'), roleId: role.id, customerId: c.id, email: 'banner_staff@example.com' });
    await (await new Api(w.server.url).login('banner_staff', 'Banner#Staff123')).acceptPrivacy();
    await w.browser.context.clearCookies();
    const staff = await w.browser.context.newPage();
    const asked = staff.waitForResponse('**/api/auth/sys/dev/pending/list');
    await signIn(staff, w.server.url, 'banner_staff', 'Banner#Staff123', '/manage/device/list');
    await staff.getByTestId('device-list').waitFor();
    await asked;
    await staff.waitForTimeout(500);
    assert.equal(await staff.getByTestId('pending-banner').count(), 0, 'no banner for a customer user');
    await staff.close();
  });

  test('where am I: the browser tab and the history tabs name the device, not "Device detail" twice', async () => {
    const c = await w.root.must('POST', '/api/auth/sys/customer/add', { name: 'Title Co', code: 'TITLECO' });
    const site = await w.root.must('POST', '/api/auth/sys/site/add', { customerId: c.id, name: 'Kowloon Bay', code: 'HK-KB' });
    const model = await w.root.must('POST', '/api/auth/sys/dev/model/add', { name: 'TITLE-AC-22', deviceType: 2 });
    const ids = [];
    for (const sn of ['HK-KB-01-08', 'HK-KB-01-09']) {
      ids.push((await w.root.must('POST', '/api/auth/sys/dev/basic/add', { sn, name: `Bay ${sn.slice(-2)}`, modelId: model.id, siteId: site.id, maintenanceCycle: 90 })).id);
    }
    await w.browser.context.clearCookies();
    const page = await w.browser.context.newPage();
    await signIn(page, w.server.url, ROOT_NAME, ROOT_PASSWORD);
    await page.waitForURL('**/manage/home');
    await page.waitForFunction(() => document.title === 'Home · ChargeOps');
    await page.goto(`${w.server.url}/manage/device/detail/${ids[0]}`);
    await page.waitForFunction(() => document.title === 'HK-KB-01-08 · Device detail · ChargeOps');
    await page.goto(`${w.server.url}/manage/device/detail/${ids[1]}`);
    await page.waitForFunction(() => document.title === 'HK-KB-01-09 · Device detail · ChargeOps');
    const tabs = page.getByTestId('history-tabs');
    await tabs.getByText('HK-KB-01-08', { exact: true }).waitFor();
    await tabs.getByText('HK-KB-01-09', { exact: true }).waitFor();
    assert.equal(await tabs.getByText('Device detail', { exact: true }).count(), 0, 'no tab named "Device detail"');
    await page.goto(`${w.server.url}/manage/site/detail/${site.id}`);
    await page.waitForFunction(() => document.title === 'Kowloon Bay · Site detail · ChargeOps');
    await page.close();
  });

  test('find-password honours --captcha=false: no captcha asked, the mail request goes through', async () => {
    await w.browser.context.clearCookies();
    const page = await w.browser.context.newPage();
    await page.goto(`${w.server.url}/find-password`);
    await page.getByTestId('find-password-email').fill('nobody@example.com');
    // the server's config has been read: the form is final
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getByTestId('find-password-captcha').count(), 0, 'no captcha field');
    const answer = page.waitForResponse('**/api/unauth/password/email');
    await page.getByTestId('find-password-submit').click();
    const body = await (await answer).json();
    assert.equal(body.code, 0, `the mail request: ${JSON.stringify(body)}`);
    await page.getByTestId('find-password-sent').waitFor();
    await page.close();
  });
});
