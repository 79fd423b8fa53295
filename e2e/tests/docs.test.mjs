// Issue 12, the docs wiki in the console (docs/docs-wiki.md): root writes a level-2 document —
// properties first, then the content in the TipTap editor with an image from the insert dialog;
// the draft is autosaved (the interval shortened for the test through the window flag the
// editor reads; 30 s by default) and kept when root leaves with unsaved changes after the
// warning, then restored on coming back; the saved document is found by a Chinese two-character
// word and an English word, the match highlighted. A user whose document level is 5 opening the
// level-2 document by URL gets the forbidden page (and the server refuses it too).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { png } from '../files.mjs';
import { setUp, tearDown, openBrowser, Api, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

let server;
let browser;
let root;
let dir;
const shots = process.env.CHARGEOPS_E2E_SHOTS; // a directory: save screenshots there

let world;
before(async () => {
  world = await setUp('docs');
  ({ server, browser, root, dir } = world);
});

after(() => tearDown(world));


async function shot(page, name) {
  if (shots) await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

/** Picks the option text of the antd Select with testId. */
async function choose(page, testId, text) {
  await page.getByTestId(testId).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first().click();
  await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
}

test('root writes a level-2 document with an image, sees it autosaved, finds it by search; a level-5 user gets the forbidden page', async () => {
  await root.must('POST', '/api/auth/sys/article/category/add', { name: 'Field manuals', description: 'e2e' });
  const image = join(dir, 'wiring.png');
  writeFileSync(image, png(40, 30, [30, 120, 200]));

  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  await page.addInitScript(() => {
    window.__CHARGEOPS_AUTOSAVE_MS__ = 1500;
  });
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD);
  await page.waitForURL('**/manage/home');

  // properties first
  await page.goto(`${server.url}/manage/docs/add`);
  await page.getByTestId('docs-props-form').waitFor();
  await page.getByTestId('docs-form-title').fill('Contactor welding check');
  await page.getByTestId('docs-form-name').fill('Contactor welding');
  await choose(page, 'docs-form-category', 'Field manuals');
  await choose(page, 'docs-form-read', 'Level 2');
  await choose(page, 'docs-form-write', 'Level 2');
  await page.getByTestId('docs-form-save').click();

  // then the content, in the editor
  await page.waitForURL('**/manage/docs/update/content/**');
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  assert.ok(id > 0, `document id in ${page.url()}`);
  const editor = page.getByTestId('docs-editor-rt-content').locator('.ProseMirror');
  await editor.click();
  await page.keyboard.type('Welded contactor procedure. ');
  await page.keyboard.insertText('断电后检查接触器粘连，更换触点。');
  await page.getByTestId('docs-editor-rt-image').click();
  await page.locator('[data-testid=richtext-image-modal] input[type=file]').setInputFiles(image);
  await page.locator('[data-testid=richtext-image-modal] img').first().waitFor();
  await page.getByTestId('richtext-image-ok').click();
  await editor.locator('img').waitFor();

  // autosaved to the server's draft, image by its key
  await page.getByTestId('docs-autosaved').waitFor();
  let draft;
  for (let i = 0; i < 20; i++) {
    draft = await root.must('GET', `/api/auth/sys/article/draft/get?id=${id}`);
    if (draft.content.includes('data-key')) break;
    await page.waitForTimeout(500); // the next autosave takes the image
  }
  assert.equal(draft.found, true, 'a draft was autosaved');
  assert.match(draft.content, /接触器粘连/);
  assert.match(draft.content, /data-key="[^"]+"/, 'the image is stored by its objectKey');
  await shot(page, 'docs-editor-en');

  await page.getByTestId('docs-editor-save').click();
  await page.getByTestId('docs-editor-state').filter({ hasText: 'All changes saved' }).waitFor();

  // unsaved changes: leaving warns, the draft is kept and restored on coming back
  await editor.click();
  await page.keyboard.press('End');
  await page.keyboard.type(' Extra note.');
  await page.getByTestId('docs-editor-state').filter({ hasText: 'Unsaved changes' }).waitFor();
  await page.getByRole('button', { name: 'View' }).click();
  await page.getByTestId('docs-leave-ok').click();
  await page.getByTestId('docs-detail').waitFor();
  await page.getByTestId('docs-content').locator('img').waitFor();
  assert.ok(!(await page.getByTestId('docs-content').innerText()).includes('Extra note'), 'the unsaved note is not in the document');
  await page.getByTestId('docs-edit-content').click();
  await page.getByTestId('docs-draft-restored').waitFor();
  assert.ok((await editor.innerText()).includes('Extra note'), 'the draft is restored');
  await page.getByTestId('docs-draft-discard').click();
  await page.getByTestId('docs-draft-restored').waitFor({ state: 'detached' });

  // search: a Chinese two-character word inside the sentence, and an English word
  for (const q of ['粘连', 'procedure']) {
    await page.goto(`${server.url}/manage/docs/search?q=${encodeURIComponent(q)}`);
    const hit = page.getByTestId('docs-search-hit').filter({ hasText: 'Contactor welding check' });
    await hit.waitFor();
    assert.equal(await hit.locator('mark', { hasText: q }).count() > 0, true, `"${q}" is highlighted`);
  }
  await shot(page, 'docs-search-en');

  // a user whose document level is 5
  const role = await root.must('POST', '/api/auth/sys/role/add', { name: 'docs reader' });
  await root.must('POST', '/api/auth/sys/role/auth/menu', { id: role.id, keys: ['auth_docs', 'auth_docs_home_list_all', 'auth_docs_search', 'auth_docs_detail', 'auth_docs_list'] });
  await root.must('POST', '/api/auth/sys/role/auth/data', { id: role.id, customerAccess: 0, siteAccess: 0, docLevel: 5, attachLevel: 5, webSshLevel: 5, cfgReadLevel: 5, cfgWriteLevel: 5, cfgDownloadLevel: 5, paramLevel: 5 });
  const k = await root.key();
  await root.must('POST', '/api/auth/sys/user/add', { userName: 'docs_reader', keyId: k.keyId, password: await k.fresh('Docs#Pass1234'), roleId: role.id, email: 'docs_reader@example.com' });
  const low = await new Api(server.url).login('docs_reader', 'Docs#Pass1234');
  await low.acceptPrivacy();
  const denied = await low.call('GET', `/api/auth/sys/article/detail?id=${id}`);
  assert.notEqual(denied.code, 0, 'the server refuses the document above the reader\'s level');
  const found = await low.must('POST', '/api/auth/sys/article/search', { q: '粘连' });
  assert.equal(found.total, 0, 'nor finds it');

  const other = await openBrowser();
  try {
    const p = await other.page();
    await signIn(p, server.url, 'docs_reader', 'Docs#Pass1234', `/manage/docs/detail/${id}`);
    await p.getByTestId('page-403').waitFor();
    assert.equal(await p.locator('.ant-message-error').count(), 0, 'the detail call\'s error is not toasted');
    await shot(p, 'docs-forbidden-en');
  } finally {
    await other.close();
  }
});
