// Issue 13, applications: root adds an application bound to a user through the form, sees its
// appId and appSecret once in the modal, the list shows it, the detail shows no secret, and
// "Rotate secret" shows a new one (the old one stays valid for the grace period). The zh-CN
// console shows the same screens in Chinese. Screenshots go to $APP_SHOTS when it is set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setUp, tearDown, localeFixture, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const shots = process.env.APP_SHOTS;
const shot = async (page, name) => {
  if (shots) await page.waitForTimeout(500);
  if (shots) await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
};

let world;
before(async () => {
  world = await setUp('applications');
});

after(() => tearDown(world));

test('root adds an application, sees the secret once, lists it, reads it without the secret, rotates it', async () => {
  const { server, browser, root } = world;
  await root.createUser('erp_bot', 'Bot#Pass12345', ['auth_device', 'auth_device_list']);

  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD, '/manage/system/application/add');
  await page.getByTestId('app-form').waitFor();
  await page.getByTestId('app-name').fill('ERP billing');
  await page.getByTestId('app-description').fill('Nightly billing export');
  await page.getByTestId('app-user').click();
  await page.locator('.ant-select-item-option', { hasText: 'erp_bot' }).click();
  await shot(page, 'en-form');
  await page.getByTestId('app-save').click();

  await page.getByTestId('app-secret-modal').waitFor();
  const appId = (await page.getByTestId('app-made-id').innerText()).trim();
  const secret = (await page.getByTestId('app-made-secret').innerText()).trim();
  assert.match(appId, /^app[0-9a-f]{32}$/);
  assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
  await page.getByText('will not be shown again').waitFor();
  await shot(page, 'en-secret');
  await page.getByTestId('app-secret-done').click();

  // the detail: appId, bound user, no secret
  await page.getByTestId('app-detail').waitFor();
  await page.getByTestId('app-detail-appid').filter({ hasText: appId }).waitFor();
  const detailText = await page.getByTestId('app-detail').innerText();
  assert.ok(detailText.includes('erp_bot'), detailText);
  assert.ok(!detailText.includes(secret), 'the detail shows the secret');
  await shot(page, 'en-detail');

  // the list
  await page.goto(`${server.url}/manage/system/application/list`);
  const row = page.locator('[data-testid="app-list"] tr', { hasText: 'ERP billing' });
  await row.waitFor();
  assert.ok((await row.innerText()).includes(appId));
  assert.ok(!(await page.getByTestId('app-list').innerText()).includes(secret));
  await shot(page, 'en-list');

  // rotate from the detail: a new secret, shown once
  await row.getByRole('link', { name: 'ERP billing' }).click();
  await page.getByTestId('app-detail').waitFor();
  await page.getByTestId('app-rotate').click();
  await page.getByTestId('confirm-ok').click();
  await page.getByTestId('app-secret-modal').waitFor();
  const rotated = (await page.getByTestId('app-made-secret').innerText()).trim();
  assert.match(rotated, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(rotated, secret);
  assert.equal((await page.getByTestId('app-made-id').innerText()).trim(), appId);
  await shot(page, 'en-rotated');
  await page.getByTestId('app-secret-done').click();
  await page.getByTestId('app-secret-modal').waitFor({ state: 'hidden' });
  assert.ok(!(await page.getByTestId('app-detail').innerText()).includes(rotated));

  // the API agrees: no secret in list or detail
  const list = await root.must('POST', '/api/auth/sys/application/list', {});
  assert.equal(list.total, 1);
  assert.ok(!JSON.stringify(list).includes(rotated) && !JSON.stringify(list).includes(secret));
  await page.close();
});

test('the zh-CN console shows the application screens in Chinese', async () => {
  const w = await localeFixture('zh-CN');
  try {
    await w.root.createUser('zh_bot', 'Bot#Pass12345', ['auth_device']);
    const users = await w.root.must('POST', '/api/auth/sys/application/user/options', { name: 'zh_bot' });
    const made = await w.root.must('POST', '/api/auth/sys/application/add', { name: '计费系统', userId: users[0].id });
    const page = await w.browser.page();
    await signIn(page, w.server.url, ROOT_NAME, ROOT_PASSWORD, '/manage/system/application/list');
    await page.locator('[data-testid="app-list"] tr', { hasText: '计费系统' }).waitFor();
    await page.getByText('安装时间').first().waitFor();
    await shot(page, 'zh-list');
    await page.goto(`${w.server.url}/manage/system/application/detail/${made.id}`);
    await page.getByTestId('app-detail').waitFor();
    await page.getByText('密钥已加密保存').waitFor();
    await page.getByTestId('app-rotate').click();
    await page.getByTestId('confirm-ok').click();
    await page.getByText('关闭后将不再显示').waitFor();
    await shot(page, 'zh-rotated');
    await page.getByTestId('app-secret-done').click();
    await page.goto(`${w.server.url}/manage/system/application/add`);
    await page.getByTestId('app-form').waitFor();
    await page.getByTestId('app-save').click();
    await page.getByText('不能为空').first().waitFor();
    await shot(page, 'zh-form');
  } finally {
    await w.browser.close();
    await w.server.stop();
  }
});
