// Issue 2 browser flows: sign-in, wrong password, limited role, privacy modal, expired session,
// 404 and the zh-CN console, in Debian's Chromium against a real chargeops binary.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, Api, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await openBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function freshPage() {
  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  return page;
}

test('root signs in, must accept the privacy policy first, then sees the whole menu', async () => {
  const page = await freshPage();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD);
  await page.waitForURL('**/manage/home');
  const modal = page.getByTestId('privacy-modal');
  await modal.waitFor();
  // The modal blocks the console: the sidebar behind it cannot be clicked.
  await assert.rejects(page.getByTestId('sidebar').getByText('Sites').first().click({ timeout: 1500 }));
  await page.getByTestId('privacy-accept').click();
  await modal.waitFor({ state: 'hidden' });
  const sidebar = page.getByTestId('sidebar');
  for (const item of ['Sites', 'Devices', 'Roles', 'Users', 'Customers']) {
    await sidebar.getByText(item, { exact: true }).first().waitFor();
  }
  // Accepted once: a reload does not ask again.
  await page.reload();
  await sidebar.waitFor();
  assert.equal(await page.getByTestId('privacy-modal').count(), 0);
  await page.close();
});

test('a wrong password shows the server message and stays on the login page', async () => {
  const page = await freshPage();
  await signIn(page, server.url, ROOT_NAME, 'Wrong#Pass999');
  await page.getByText('Wrong user name or password').first().waitFor();
  assert.match(page.url(), /\/login/);
  await page.close();
});

test('a limited role sees only its menus and is refused a typed URL', async () => {
  const api = await new Api(server.url).login(ROOT_NAME, ROOT_PASSWORD);
  await api.createUser('site_viewer', 'Site#View123', ['auth_site', 'auth_site_list', 'auth_my']);
  const user = await new Api(server.url).login('site_viewer', 'Site#View123');
  await user.acceptPrivacy();

  const page = await freshPage();
  await signIn(page, server.url, 'site_viewer', 'Site#View123');
  // Without auth_home the landing page is welcome.
  await page.waitForURL('**/manage/welcome');
  const sidebar = page.getByTestId('sidebar');
  await sidebar.getByText('Sites', { exact: true }).first().waitFor();
  for (const hidden of ['Devices', 'Roles', 'Users', 'Customers', 'Logs']) {
    assert.equal(await sidebar.getByText(hidden, { exact: true }).count(), 0, `${hidden} should be hidden`);
  }
  await page.goto(`${server.url}/manage/system/role/list`);
  await page.getByTestId('page-noauth').waitFor();
  await page.close();
});

test('an unknown path shows the 404 page', async () => {
  const page = await freshPage();
  await page.goto(`${server.url}/no/such/page`);
  await page.getByTestId('page-404').waitFor();
  await page.close();
});

test('an expired session returns to /login', async () => {
  const short = await startServer(['--session-idle', '2s']);
  try {
    const api = await new Api(short.url).login(ROOT_NAME, ROOT_PASSWORD);
    await api.acceptPrivacy();
    const page = await freshPage();
    await signIn(page, short.url, ROOT_NAME, ROOT_PASSWORD);
    await page.waitForURL('**/manage/home');
    await page.getByTestId('sidebar').waitFor();
    await page.waitForTimeout(2500);
    // The next call answers 20002: one warning dialog, whose OK goes to /login.
    await page.getByTestId('user-menu').hover();
    await page.getByTestId('user-menu-my').click();
    await page.getByTestId('session-expired-dialog').waitFor();
    await page.getByTestId('session-expired-ok').click();
    await page.waitForURL('**/login**');
    await page.getByTestId('login-username').waitFor();
    await page.close();
  } finally {
    await short.stop();
  }
});

test('the console renders in zh-CN', async () => {
  const zh = await startServer(['--default-locale', 'zh-CN']);
  try {
    const page = await freshPage();
    await page.goto(`${zh.url}/login`);
    // the server's default language arrives with its config; wait for it, not for the first paint
    await page.getByTestId('login-submit').filter({ hasText: /登\s*录/ }).waitFor();
    const text = await page.locator('body').innerText();
    assert.match(text, /登录/);
    assert.doesNotMatch(text, /Sign in|Log in/);
    await page.getByTestId('login-username').fill(ROOT_NAME);
    await page.getByTestId('login-password').fill('Wrong#Pass999');
    await page.getByTestId('login-submit').click();
    await page.getByText('用户名或密码错误').first().waitFor();
    await page.close();
  } finally {
    await zh.stop();
  }
});
