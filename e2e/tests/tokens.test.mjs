// Issue 22 browser flow, tokens (docs/tokens.md): root adds a token to customer Alpha through the
// drawer, blocks it with the batch action (confirmed), imports an xlsx file whose bad row is
// listed by row and column (nothing imported) and then a good one; a customer-limited user of
// Alpha sees only Alpha's tokens (not Bravo's) and adds one of its own. The screen is checked in
// en-US and zh-CN; screenshots go to CHARGEOPS_E2E_SHOTS when it names a directory.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { setUp, tearDown, Api, signIn, confirmOk, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';
import { xlsx as workbook } from '../files.mjs';

const shots = process.env.CHARGEOPS_E2E_SHOTS;
const NO_DATA = { webSshAccess: 0, webSshLevel: 5, cfgReadLevel: 5, cfgWriteLevel: 5, cfgDownloadLevel: 5, paramLevel: 5, docLevel: 5, attachLevel: 5, emailAlarm: false, userAccess: false };
const TOKEN_KEYS = ['auth_token', 'auth_token_list', 'auth_token_add', 'auth_token_edit', 'auth_token_delete', 'auth_token_import'];

let w;
let server;
let browser;
let root;
let scratch;

before(async () => {
  w = await setUp('e2e-tokens', ['--language-switch']);
  ({ server, browser, root, dir: scratch } = w);
});

after(() => tearDown(w));

async function shot(page, name) {
  if (!shots) return;
  // no drawer or modal half-way through its animation
  await page
    .waitForFunction(() => !document.querySelector('.ant-modal[class*="-appear-active"], .ant-drawer [class*="-appear-active"], .ant-modal[class*="-leave-active"]'), null, { timeout: 3000 })
    .catch(() => undefined);
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

const xlsx = (rows) => workbook(rows, 'Tokens');
const HEADER = ['idTag', 'Name', 'Parent idTag', 'Expiry', 'Status', 'Note'];

/** The idTags the token list shows. */
async function shownTags(page) {
  await page.locator('[data-testid="token-list"] .ant-table-tbody').waitFor();
  return page.locator('[data-testid="token-list"] .ant-table-row td:nth-child(2)').allInnerTexts();
}

async function pickCustomer(page, testId, name) {
  await page.getByTestId(testId).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: name }).first().click();
}

test('root adds, blocks and imports tokens; a customer-limited user sees only its customer tokens (en-US and zh-CN)', async () => {
  const alpha = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Alpha Tokens', code: 'ATOK' });
  const bravo = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Bravo Tokens', code: 'BTOK' });
  await root.must('POST', '/api/auth/sys/token/add', { customerId: bravo.id, idTag: 'BRAVO-CARD-1', name: 'Bravo card' });

  const page = await browser.page();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD, '/manage/token/list');
  await page.getByTestId('token-add').click();
  await pickCustomer(page, 'token-customer', 'Alpha Tokens');
  await page.getByTestId('token-idtag').fill('ALPHA-CARD-1');
  await page.getByTestId('token-name').fill('Alpha fleet card');
  await shot(page, 'token-add-en');
  await page.getByTestId('token-form-save').click();
  await page.getByTestId('token-status-ALPHA-CARD-1').waitFor();
  assert.equal(await page.getByTestId('token-status-ALPHA-CARD-1').innerText(), 'Active');

  // block through the batch action, confirmed (once the add drawer has closed, so that its
  // closing does not race the selection)
  await page.getByTestId('token-form-save').waitFor({ state: 'hidden' });
  const box = page.locator('[data-testid="token-list"] .ant-table-row').filter({ hasText: 'ALPHA-CARD-1' }).locator('.ant-checkbox-input');
  await box.check();
  assert.ok(await box.isChecked(), 'the row is selected');
  await page.getByTestId('token-block').click();
  await confirmOk(page);
  await page.locator('[data-testid="token-status-ALPHA-CARD-1"]', { hasText: 'Blocked' }).waitFor({ timeout: 30_000 }).catch(async (e) => {
    // say what the server holds and what the page said, so that a failure can be told apart
    const held = await root.must('POST', '/api/auth/sys/token/list', { idTag: 'ALPHA-CARD-1' });
    const said = await page.locator('.ant-message-notice').allInnerTexts();
    throw new Error(`not shown Blocked (server status ${held.list[0]?.status}, messages ${JSON.stringify(said)}): ${e.message}`);
  });
  const blocked = await root.must('POST', '/api/auth/sys/token/list', { idTag: 'ALPHA-CARD-1' });
  assert.equal(blocked.list[0].status, 1);

  // import: a bad row is listed by row and column and nothing is imported; then a good file
  const bad = join(scratch, 'tokens-bad.xlsx');
  writeFileSync(bad, xlsx([HEADER, ['ALPHA-IMP-1', 'Imported one', '', '2030-01-31', 'active', ''], ['ALPHA-IMP-2', 'Bad date', '', 'someday', '', '']]));
  await page.getByTestId('token-import').click();
  await pickCustomer(page, 'token-import-customer', 'Alpha Tokens');
  await page.locator('[data-testid="token-import-modal"] input[type=file]').setInputFiles(bad);
  await page.getByTestId('token-import-submit').click();
  await page.getByTestId('token-import-rows').waitFor();
  const errorRow = await page.locator('[data-testid="token-import-rows"] .ant-table-row').first().innerText();
  assert.match(errorRow, /^3\s/, 'row 3 is named');
  assert.match(errorRow, /Expiry/, 'the column is named');
  await shot(page, 'token-import-error-en');
  assert.equal((await root.must('POST', '/api/auth/sys/token/list', { idTag: 'ALPHA-IMP' })).total, 0, 'nothing imported');
  const good = join(scratch, 'tokens-good.xlsx');
  writeFileSync(good, xlsx([HEADER, ['ALPHA-IMP-1', 'Imported one', 'ALPHA-CARD-1', '2030-01-31', 'active', ''], ['ALPHA-IMP-2', 'Imported two', '', '', 'blocked', 'n']]));
  await page.locator('[data-testid="token-import-modal"] input[type=file]').setInputFiles(good);
  await page.getByTestId('token-import-submit').click();
  await page.getByTestId('token-import-done').waitFor();
  await page.keyboard.press('Escape');
  await page.getByTestId('token-import-modal').waitFor({ state: 'hidden' });
  assert.equal((await root.must('POST', '/api/auth/sys/token/list', { idTag: 'ALPHA-IMP' })).total, 2);

  const rootTags = await shownTags(page);
  assert.ok(rootTags.includes('BRAVO-CARD-1') && rootTags.includes('ALPHA-IMP-2'), `root sees every customer: ${rootTags}`);
  await shot(page, 'token-list-root-en');

  // the device page's Local list action: the version held (not known: never asked) and the current one
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: alpha.id, name: 'Alpha Token Yard', code: 'ATOK-S' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'ATOK-AC-22', deviceType: 2 });
  const device = await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: 'ATOK-CP-0001', name: 'Alpha Bay 1', modelId: model.id, siteId: site.id });
  const localList = async (name) => {
    await page.goto(`${server.url}/manage/device/detail/${device.id}`);
    await page.getByTestId('device-local-list').click();
    await page.getByTestId('local-list-held').waitFor();
    await shot(page, name);
    const held = await page.getByTestId('local-list-held').innerText();
    await page.keyboard.press('Escape');
    return held;
  };
  assert.equal(await localList('token-local-list-en'), 'Not known yet');

  // a user limited to Alpha
  const role = await root.must('POST', '/api/auth/sys/role/add', { name: 'Alpha token admin', customerId: alpha.id });
  await root.must('POST', '/api/auth/sys/role/auth/menu', { id: role.id, keys: ['auth_home', 'auth_my', ...TOKEN_KEYS] });
  await root.must('POST', '/api/auth/sys/role/auth/data', { id: role.id, customerAccess: 1, siteAccess: 0, ...NO_DATA });
  const k = await root.key();
  await root.must('POST', '/api/auth/sys/user/add', {
    userName: 'alpha_tokens', keyId: k.keyId, password: await k.fresh('Alpha#Tok1234'), roleId: role.id, customerId: alpha.id, email: 'alpha_tokens@example.com',
  });
  const alphaApi = await new Api(server.url).login('alpha_tokens', 'Alpha#Tok1234');
  await alphaApi.acceptPrivacy();
  const own = await alphaApi.must('POST', '/api/auth/sys/token/list', { pageSize: 100 });
  assert.deepEqual(own.list.map((r) => r.customerId).filter((c) => c !== alpha.id), [], 'only Alpha tokens through the API');

  await browser.context.clearCookies();
  await signIn(page, server.url, 'alpha_tokens', 'Alpha#Tok1234', '/manage/token/list');
  const alphaTags = await shownTags(page);
  assert.ok(alphaTags.includes('ALPHA-CARD-1'), `Alpha's user sees its tokens: ${alphaTags}`);
  assert.ok(!alphaTags.includes('BRAVO-CARD-1'), `Alpha's user does not see Bravo's: ${alphaTags}`);
  await page.getByTestId('token-policy').waitFor();
  await page.getByTestId('token-add').click();
  await pickCustomer(page, 'token-customer', 'Alpha Tokens');
  await page.getByTestId('token-idtag').fill('ALPHA-OWN-1');
  await page.getByTestId('token-form-save').click();
  await page.getByTestId('token-status-ALPHA-OWN-1').waitFor();
  await shot(page, 'token-list-customer-en');

  // the same screen in Chinese
  await page.evaluate(() => localStorage.setItem('chargeops_locale', 'zh-CN'));
  await page.reload();
  await page.getByTestId('token-status-ALPHA-OWN-1').waitFor();
  assert.equal(await page.getByTestId('token-status-ALPHA-CARD-1').innerText(), '停用');
  assert.match(await page.getByTestId('token-list').innerText(), /令牌号/);
  await shot(page, 'token-list-customer-zh');
  await page.getByTestId('token-import').click();
  await page.getByTestId('token-import-modal').waitFor();
  await shot(page, 'token-import-zh');

  await browser.context.clearCookies();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD);
  await page.waitForURL('**/manage/**');
  assert.equal(await localList('token-local-list-zh'), '尚未获知');
});
