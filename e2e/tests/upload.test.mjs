// Issue 11, storage in the console: a site image uploaded through the site form (sts/write →
// direct upload to the local store → confirm) is stored as an objectKey and loads on the site's
// detail page through its signed URL; a text file renamed .png is refused with the spec's
// message and changes nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { png } from '../files.mjs';
import { setUp, tearDown, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

let server;
let browser;
let root;
let dir;

let world;
before(async () => {
  world = await setUp('upload');
  ({ server, browser, root, dir } = world);
});

after(() => tearDown(world));

async function signedIn() {
  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD);
  await page.waitForURL('**/manage/home');
  return page;
}

test('a site image uploaded in the site form is stored as an objectKey and loads on the site detail', async () => {
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Upload Co', code: 'UPLOAD' });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: 'Picture Yard', code: 'PIC-01' });
  const file = join(dir, 'yard.png');
  writeFileSync(file, png(24, 16, [0, 128, 255]));

  const page = await signedIn();
  await page.goto(`${server.url}/manage/site/update/${site.id}`);
  await page.getByTestId('site-name').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="site-name"]')?.value === 'Picture Yard');
  await page.getByTestId('site-image-field').locator('input[type=file]').setInputFiles(file);
  // the field's value becomes the objectKey, and its preview loads through the signed URL
  await page.waitForFunction(() => /^images\/[0-9a-f]{16}-\d+\.png$/.test(document.querySelector('[data-testid="site-image-field"]')?.dataset.value ?? ''));
  const preview = page.getByTestId('site-image-preview').locator('img');
  await preview.waitFor();
  await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await preview.elementHandle());

  await page.getByTestId('site-save').click();
  await page.waitForURL(/\/manage\/site\/detail\/\d+$/);
  const img = page.getByTestId('site-image').locator('img');
  await img.waitFor();
  const loaded = await page.waitForFunction((el) => el.complete && el.naturalWidth > 0 && [el.naturalWidth, el.naturalHeight], await img.elementHandle());
  assert.deepEqual(await loaded.jsonValue(), [24, 16]);
  const src = await img.getAttribute('src');
  assert.match(src, /\/api\/unauth\/oss\/object\/images\/[0-9a-f]{16}-\d+\.png\?/, 'the detail shows the signed URL of the stored object');

  const stored = await root.must('GET', `/api/auth/sys/site/detail?id=${site.id}`);
  assert.match(stored.image, /^images\/[0-9a-f]{16}-\d+\.png$/, 'the site stores the objectKey, not a URL');
  await page.close();
});

test('a text file renamed .png is refused for its content, not its type (issue 30 item 12)', async () => {
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: (await root.must('POST', '/api/auth/sys/customer/add', { name: 'Text Co', code: 'TEXTCO' })).id, name: 'Text Yard', code: 'TXT-01' });
  const file = join(dir, 'notes.png');
  writeFileSync(file, 'these are plain words, not an image\n');

  const page = await signedIn();
  await page.goto(`${server.url}/manage/site/update/${site.id}`);
  await page.waitForFunction(() => document.querySelector('[data-testid="site-name"]')?.value === 'Text Yard');
  await page.getByTestId('site-image-field').locator('input[type=file]').setInputFiles(file);
  await page.locator('.ant-message-notice', { hasText: "The file's content is not a valid .png file: it may be damaged, incomplete or renamed" }).waitFor();
  assert.equal(await page.getByTestId('site-image-field').getAttribute('data-value'), '', 'the field keeps no value');
  assert.equal(await page.getByTestId('site-image-preview').count(), 0);
  await page.close();
});

test('an avatar uploaded on the personal page shows in the header', async () => {
  const file = join(dir, 'me.png');
  writeFileSync(file, png(8, 8, [200, 40, 40]));
  const page = await signedIn();
  await page.goto(`${server.url}/manage/my`);
  await page.getByTestId('my-edit').click();
  await page.getByTestId('my-avatar-field').locator('input[type=file]').setInputFiles(file);
  await page.getByTestId('my-avatar-preview').locator('img').waitFor();
  await page.getByTestId('my-save').click();
  const avatar = page.getByTestId('user-menu').locator('img');
  await avatar.waitFor();
  await page.waitForFunction((el) => el.complete && el.naturalWidth === 8, await avatar.elementHandle());
  const me = await root.must('GET', '/api/auth/sys/user/owner/detail');
  assert.match(me.avatar, /^images\/[0-9a-f]{16}-\d+\.png$/);
  await page.close();
});
