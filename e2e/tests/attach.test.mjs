// Issue 11, attachments and shares in the console: root makes a folder, uploads a small PDF into
// it through the upload dialog (sts/write → direct upload → confirm → attach/file/add), shares
// it with code 1234; a fresh signed-out browser opens the link, a wrong code is refused with the
// server's message, 1234 downloads the same bytes, and the owner reads both tries in the share's
// access log. Root renames, moves and deletes a file; a user whose attachment level is below a
// folder's read level sees neither the folder nor its file (the server refuses them too). The
// zh-CN share page says the share expired for an unknown token in Chinese.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setUp, tearDown, openBrowser, Api, signIn, confirmOk, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';
import { pdf } from '../files.mjs';

let server;
let browser;
let root;
let dir;

let world;
before(async () => {
  world = await setUp('attach');
  ({ server, browser, root, dir } = world);
});

after(() => tearDown(world));

test('root uploads a PDF into a new folder, shares it with a code, and a signed-out visitor downloads it', async () => {
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Attach Co', code: 'ATTACH' });
  const bytes = pdf();
  const file = join(dir, 'manual.pdf');
  writeFileSync(file, bytes);

  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD, '/manage/attach/list');
  await page.getByTestId('attach-page').waitFor();

  // a top-level folder of the customer
  await page.getByTestId('attach-folder-add-top').click();
  const customerSelect = page.getByTestId('attach-folder-customer');
  if (await customerSelect.count()) {
    await customerSelect.click();
    await page.locator('.ant-select-item-option', { hasText: 'Attach Co' }).click();
  }
  await page.getByTestId('attach-folder-name').fill('Manuals');
  await page.getByTestId('attach-folder-ok').click();
  const folder = page.locator('[data-testid="attach-folder"][data-path="Manuals"]');
  await folder.waitFor();
  await folder.click();
  await page.getByTestId('attach-current').filter({ hasText: 'Manuals' }).waitFor();

  // upload the PDF with a description
  await page.getByTestId('attach-upload').click();
  await page.locator('.ant-modal input[type=file]').setInputFiles(file);
  await page.getByTestId('attach-upload-description').fill('the manual');
  await page.getByTestId('attach-upload-ok').click();
  const row = page.locator('[data-testid="attach-list"] tr', { hasText: 'manual.pdf' });
  await row.waitFor();
  assert.match(await row.innerText(), /the manual/);
  const listed = await root.must('POST', '/api/auth/sys/attach/file/list', { customerId: customer.id, page: 1, pageSize: 20 });
  assert.equal(listed.total, 1);
  assert.equal(listed.list[0].size, bytes.length);
  assert.equal(listed.list[0].path, 'Manuals');

  // share it with code 1234
  await row.getByTestId('attach-share').click();
  await page.locator('.ant-radio-button-wrapper', { has: page.getByTestId('attach-share-validity-7') }).click();
  await page.getByTestId('attach-share-code').fill('1234');
  await page.getByTestId('attach-share-ok').click();
  const linkInput = page.getByTestId('attach-share-link');
  await linkInput.waitFor();
  const link = await linkInput.inputValue();
  assert.match(link, new RegExp(`^${server.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/share/file\\?token=[0-9a-f]{32}$`));
  assert.equal(await page.getByTestId('attach-share-code-value').inputValue(), '1234');
  await page.close();

  // a fresh, signed-out browser
  const visitor = await openBrowser();
  try {
    const p = await visitor.page();
    await p.goto(link);
    await p.getByTestId('share-name').filter({ hasText: 'manual.pdf' }).waitFor();
    await p.getByTestId('share-code').fill('9999');
    await p.getByTestId('share-download').click();
    await p.getByTestId('share-code-error').filter({ hasText: /Wrong access code/ }).waitFor();

    await p.getByTestId('share-code').fill('1234');
    const [download] = await Promise.all([p.waitForEvent('download'), p.getByTestId('share-download').click()]);
    assert.equal(download.suggestedFilename(), 'manual.pdf');
    const got = readFileSync(await download.path());
    assert.deepEqual(got, bytes, 'the downloaded bytes are the uploaded ones');
  } finally {
    await visitor.close();
  }

  const shares = await root.must('POST', '/api/auth/sys/attach/share/list', { fileId: listed.list[0].id });
  assert.equal(shares.length, 1);
  assert.equal(shares[0].wrongCodes, 1);

  // the server logged each access: the wrong code and the download it allowed
  const accesses = await root.must('POST', '/api/auth/sys/attach/share/log/list', { id: shares[0].id });
  const results = accesses.map((a) => `${a.action}:${a.result}`);
  assert.ok(results.includes('download:wrong_code') && results.includes('download:ok'), `share log: ${results.join(', ')}`);

  // the owner sees the visitor's accesses in the share's access log (ten a page, newest first)
  const owner = await browser.context.newPage();
  await owner.goto(`${server.url}/manage/attach/list`);
  await owner.locator('[data-testid="attach-folder"][data-path="Manuals"]').click();
  await owner.locator('[data-testid="attach-list"] tr', { hasText: 'manual.pdf' }).getByTestId('attach-shares-open').click();
  await owner.locator('[data-testid="attach-shares"] .ant-table-row-expand-icon').first().click();
  const log = owner.getByTestId('attach-share-log');
  await log.locator('tr', { hasText: 'Allowed' }).first().waitFor();
  if (accesses.findIndex((a) => a.result === 'wrong_code') >= 10) await log.locator('.ant-pagination-next').click();
  await log.locator('tr', { hasText: 'Wrong code' }).waitFor();
  assert.match(await log.innerText(), /Download/);
  await owner.close();
});

test('root renames, moves and deletes a file; a user below a folder\'s read level never sees it', async () => {
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Levels Co', code: 'LEVELS' });
  const open = { readLevel: 5, writeLevel: 5, downloadLevel: 5 };
  const docs = await root.must('POST', '/api/auth/sys/attach/folder/add', { customerId: customer.id, name: 'Docs', ...open });
  await root.must('POST', '/api/auth/sys/attach/folder/add', { customerId: customer.id, name: 'Archive', ...open });
  const secret = await root.must('POST', '/api/auth/sys/attach/folder/add', { customerId: customer.id, name: 'Secret', readLevel: 1, writeLevel: 1, downloadLevel: 1 });
  const file = join(dir, 'plan.pdf');
  writeFileSync(file, pdf());

  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD, '/manage/attach/list');
  // opens a folder and waits for its own files: until the fetch ends the list still shows the
  // previous folder's rows (both Docs and Secret hold a plan.pdf)
  const openFolder = async (folder) => {
    await page.locator(`[data-testid="attach-folder"][data-path="${folder}"]`).click();
    await page.getByTestId('attach-current').filter({ hasText: folder }).waitFor();
    await page.locator('[data-testid="attach-list"][aria-busy="false"]').waitFor();
  };
  const upload = async (folder, name) => {
    await openFolder(folder);
    await page.getByTestId('attach-upload').click();
    await page.locator('.ant-modal input[type=file]').setInputFiles(file);
    await page.getByTestId('attach-upload-ok').click();
    await page.locator('[data-testid="attach-list"] tr', { hasText: name }).waitFor();
  };
  await upload('Docs', 'plan.pdf');
  await upload('Secret', 'plan.pdf');

  // rename in Docs
  await openFolder('Docs');
  let row = page.locator('[data-testid="attach-list"] tr', { hasText: 'plan.pdf' });
  await row.getByTestId('attach-edit').click();
  await page.getByTestId('attach-edit-name').fill('site plan.pdf');
  await page.getByTestId('attach-edit-ok').click();
  row = page.locator('[data-testid="attach-list"] tr', { hasText: 'site plan.pdf' });
  await row.waitFor();

  // move it to Archive
  await row.getByTestId('attach-move').click();
  await page.getByTestId('attach-move-folder').click();
  await page.locator('.ant-select-tree-node-content-wrapper', { hasText: 'Archive' }).click();
  await page.getByTestId('attach-move-ok').click();
  await row.waitFor({ state: 'detached' });
  await openFolder('Archive');
  row = page.locator('[data-testid="attach-list"] tr', { hasText: 'site plan.pdf' });
  await row.waitFor();
  const archived = await root.must('POST', '/api/auth/sys/attach/file/list', { customerId: customer.id, folderId: docs.id, page: 1, pageSize: 20 });
  assert.equal(archived.total, 0, 'the file left Docs');

  // a user of the customer whose role's attachment level is 3
  const user = await root.createUser('levels_user', 'Levels#Pass123', ['auth_attach', 'auth_attach_tree']);
  const info = await root.must('GET', `/api/auth/sys/user/detail?id=${user.id}`);
  await root.must('POST', '/api/auth/sys/role/auth/data', { id: info.roleId, customerAccess: 0, siteAccess: 0, attachLevel: 3, docLevel: 5, webSshLevel: 5, cfgReadLevel: 5, cfgWriteLevel: 5, cfgDownloadLevel: 5, paramLevel: 5 });
  const secretFiles = await root.must('POST', '/api/auth/sys/attach/file/list', { customerId: customer.id, folderId: secret.id, page: 1, pageSize: 20 });
  assert.equal(secretFiles.total, 1);
  const low = await new Api(server.url).login('levels_user', 'Levels#Pass123');
  await low.acceptPrivacy();
  const denied = await low.call('GET', `/api/auth/sys/attach/file/detail?id=${secretFiles.list[0].id}`);
  assert.notEqual(denied.code, 0, 'the server refuses the file above the user\'s level');
  const url = await low.call('GET', `/api/auth/sys/attach/file/url?id=${secretFiles.list[0].id}`);
  assert.notEqual(url.code, 0, 'and its download link');

  const other = await openBrowser();
  try {
    const p = await other.page();
    await signIn(p, server.url, 'levels_user', 'Levels#Pass123', '/manage/attach/list');
    await p.locator('[data-testid="attach-folder"][data-path="Archive"]').waitFor();
    assert.equal(await p.locator('[data-testid="attach-folder"][data-path="Secret"]').count(), 0, 'the folder above the level is not in the tree');
    await p.locator('[data-testid="attach-folder"][data-path="Archive"]').click();
    await p.locator('[data-testid="attach-list"] tr', { hasText: 'site plan.pdf' }).waitFor();
  } finally {
    await other.close();
  }

  // root deletes the archived file
  await row.getByTestId('attach-delete').click();
  await confirmOk(page);
  await row.waitFor({ state: 'detached' });
  const left = await root.must('POST', '/api/auth/sys/attach/file/list', { customerId: customer.id, page: 1, pageSize: 20 });
  assert.equal(left.total, 1, 'only the secret file is left');
  await page.close();
});

test('the zh-CN share page says an unknown share has expired', async () => {
  const zh = await openBrowser('zh-CN');
  try {
    await zh.context.addInitScript(() => localStorage.setItem('chargeops_locale', 'zh-CN'));
    const p = await zh.page();
    await p.goto(`${server.url}/share/file?token=${'0'.repeat(32)}`);
    await p.getByTestId('share-expired').filter({ hasText: '文件分享已过期' }).waitFor();
  } finally {
    await zh.close();
  }
});
