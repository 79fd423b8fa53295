// Issue 23 browser flow: a device's Security tab (docs/security-profiles.md). A charger
// (ocpp-rpc in strict mode: its 1.6 schemas hold the security extension's) sends a CSR made by
// openssl; the charge-point CA signs it, the charger is sent the chain and installs it, and the
// tab lists the certificate; Renew certificate asks the charger for a new CSR, and the new one
// is listed too. Root sees the device at profile 0
// without a key, chooses profile 2 and is warned what the charger needs, raises it, then
// lowers it to 1 through a danger confirmation; each change is an action-log row. The tab
// reads in Chinese under zh-CN. Screenshots go to CHARGEOPS_E2E_SHOTS when set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { setUp, tearDown, chargerFixture, rootPage, confirmOk, openBrowser, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const shots = process.env.CHARGEOPS_E2E_SHOTS;
const SN = 'E2E-SEC-0001';
let w;
let device;
let charger;
const installed = [];

before(async () => {
  w = await setUp('security');
  let fixture;
  ({ device, charger: fixture } = await chargerFixture(w.server, w.root, { sn: SN, name: 'Secure', model: 'SEC-AC' }));
  charger = fixture;
  charger.handle('CertificateSigned', ({ params }) => {
    installed.push(params.certificateChain);
    return { status: 'Accepted' };
  });
  // asked for a new certificate, the charger answers, then sends a new CSR
  charger.handle('ExtendedTriggerMessage', ({ params }) => {
    if (params.requestedMessage !== 'SignChargePointCertificate') return { status: 'NotImplemented' };
    setTimeout(() => void charger.call('SignCertificate', { csr: newCSR() }).catch(() => undefined), 100);
    return { status: 'Accepted' };
  });
  await charger.connect();
  await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'SEC-AC' });
});

after(async () => {
  await charger?.close({ force: true }).catch(() => undefined);
  await tearDown(w);
});

const shot = (page, name) => (shots ? page.screenshot({ path: join(shots, `${name}.png`), fullPage: true }) : undefined);

/** A new key pair and its CSR for the charger, made by openssl. */
function newCSR() {
  execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(w.dir, 'cp.key'),
    '-out', join(w.dir, 'cp.csr'), '-subj', `/CN=${SN}/O=E2E CPO`], { stdio: 'pipe' });
  return readFileSync(join(w.dir, 'cp.csr'), 'utf8');
}

test('a charger sends a CSR, installs the signed chain, and the Security tab lists its certificate', async () => {
  const answer = await charger.call('SignCertificate', { csr: newCSR() });
  assert.equal(answer.status, 'Accepted');
  const deadline = Date.now() + 10000;
  while (!installed.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.equal(installed.length, 1, 'CertificateSigned reached the charger');
  const leaf = new X509Certificate(installed[0]);
  assert.match(leaf.subject, new RegExp(`CN=${SN}`));

  const page = await rootPage(w.browser, w.server, { to: `/manage/device/detail/${device.id}/security` });
  const row = page.getByTestId('device-certificates').locator('tbody tr', { hasText: SN });
  await row.waitFor();
  const text = await row.innerText();
  assert.match(text, /Installed/);
  assert.match(text, /Valid/);
  assert.ok(text.includes(leaf.serialNumber.replace(/^0+/, '')), `the serial ${leaf.serialNumber} is shown`);
  await shot(page, 'security-certificate-en');

  // renewal from the console: the charger is asked, sends a new CSR and installs the new chain
  await page.getByTestId('security-renew').click();
  await page.locator('.ant-modal-confirm-title', { hasText: `Ask ${SN} for a new certificate?` }).waitFor();
  await confirmOk(page);
  const deadline2 = Date.now() + 15000;
  while (installed.length < 2 && Date.now() < deadline2) await new Promise((r) => setTimeout(r, 100));
  assert.equal(installed.length, 2, 'the renewed chain reached the charger');
  await page.reload();
  await page.getByTestId('device-certificates').locator('tbody tr', { hasText: SN }).nth(1).waitFor();
  assert.equal(await page.getByTestId('device-certificates').locator('tbody tr', { hasText: 'Installed' }).count(), 2);
  await page.close();
});

test('root raises a device to profile 2 with the warnings, then lowers it to 1; each change is in the action log', async () => {
  const page = await rootPage(w.browser, w.server, { to: `/manage/device/detail/${device.id}/security` });
  const tab = page.getByTestId('device-security');
  await tab.waitFor();
  assert.equal(await page.getByTestId('security-profile').innerText(), 'Profile 0');
  assert.equal(await page.getByTestId('security-key').innerText(), 'None');
  assert.ok(await page.getByTestId('security-save').isDisabled(), 'nothing to save before a choice');

  await page.getByTestId('security-choose-2').click();
  const needs = await page.getByTestId('security-needs').innerText();
  assert.match(needs, /no key/);
  assert.match(needs, /TLS/);
  await shot(page, 'security-choose-2-en');
  await page.getByTestId('security-save').click();
  await page.locator('.ant-modal-confirm-title', { hasText: 'Raise E2E-SEC-0001 from profile 0 to 2?' }).waitFor();
  await confirmOk(page);
  await page.getByTestId('security-profile').filter({ hasText: 'Profile 2' }).waitFor();

  await page.getByTestId('security-choose-1').click();
  await page.getByTestId('security-save').click();
  await page.locator('.ant-modal-confirm-title', { hasText: 'Lower E2E-SEC-0001 from profile 2 to 1?' }).waitFor();
  await page.locator('.ant-modal-confirm-content', { hasText: 'A lower profile is weaker' }).waitFor();
  await shot(page, 'security-lower-en');
  await confirmOk(page);
  await page.getByTestId('security-profile').filter({ hasText: 'Profile 1' }).waitFor();

  const logs = await w.root.must('POST', '/api/auth/sys/logs/action/list', { pageSize: 50 });
  const rows = logs.list.filter((r) => r.action === 'POST /api/auth/sys/dev/basic/security');
  assert.equal(rows.length, 2, 'one action-log row for each change');
  assert.ok(rows.some((r) => r.data.includes('"securityProfile":1')), 'the lowering is logged with its value');
  await page.close();
});

test('the Security tab reads in Chinese under zh-CN', async () => {
  const zh = await openBrowser('zh-CN');
  try {
    await zh.context.addInitScript(() => localStorage.setItem('chargeops_locale', 'zh-CN'));
    const page = await zh.page();
    await signIn(page, w.server.url, ROOT_NAME, ROOT_PASSWORD, `/manage/device/detail/${device.id}/security`);
    await page.getByTestId('device-security').waitFor();
    await page.getByRole('tab', { name: '安全' }).waitFor();
    assert.match(await page.getByTestId('security-profile').innerText(), /^配置 \d$/);
    assert.match(await page.getByTestId('device-security').innerText(), /只有操作员可以降低配置/);
    await shot(page, 'security-zh');
  } finally {
    await zh.close();
  }
});
