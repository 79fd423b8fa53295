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
import { setUp, tearDown, chargerFixture, rootPage, confirmOk, eventually, openBrowser, signIn, Api, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const shots = process.env.CHARGEOPS_E2E_SHOTS;
const SN = 'E2E-SEC-0001';
let w;
let device;
let customer;
let charger;
const installed = [];

before(async () => {
  w = await setUp('security');
  let fixture;
  ({ device, customer, charger: fixture } = await chargerFixture(w.server, w.root, { sn: SN, name: 'Secure', model: 'SEC-AC' }));
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
  await eventually(() => installed.length, 10000, 'CertificateSigned at the charger');
  assert.equal(installed.length, 1, 'CertificateSigned reached the charger once');
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
  await eventually(() => installed.length >= 2, 15000, 'the renewed chain at the charger');
  assert.equal(installed.length, 2, 'the renewed chain reached the charger once');
  await page.reload();
  await page.getByTestId('device-certificates').locator('tbody tr', { hasText: SN }).nth(1).waitFor();
  assert.equal(await page.getByTestId('device-certificates').locator('tbody tr', { hasText: 'Installed' }).count(), 2);
  await page.close();
});

test('the Charge-point CA tab shows the built-in CA to download and the fleet\'s certificates by expiry', async () => {
  const page = await rootPage(w.browser, w.server, { to: '/manage/system/list?tab=ca' });
  await page.getByTestId('ca-card').waitFor();
  await page.getByTestId('ca-source').getByText('Built in', { exact: false }).waitFor();
  assert.match(await page.getByTestId('ca-subject').innerText(), /CN=/);
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('ca-download').click()]);
  const pem = readFileSync(await file.path(), 'utf8');
  const ca = new X509Certificate(pem);
  assert.ok(ca.ca, 'the downloaded certificate is a CA');
  assert.ok(new X509Certificate(installed[0]).verify(ca.publicKey), 'the charger\'s certificate was signed by the downloaded CA');
  // the charger's year-long certificate: listed, with the days it has left
  const row = page.getByTestId('fleet-certificates-table').locator('tbody tr', { hasText: SN });
  await row.first().waitFor();
  assert.match(await row.first().innerText(), /3\d\d days left/);
  await shot(page, 'security-ca-en');
  // expiring within 30 days: not among them
  await page.goto(`${w.server.url}/manage/system/list?tab=ca&expiringWithinDays=30`);
  await page.getByTestId('fleet-certificates-table').locator('.ant-empty').waitFor();
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

test('a viewer of the customer sees the tab without changes or renewal; another customer\'s device is not found', async () => {
  const other = await chargerFixture(w.server, w.root, { sn: 'E2E-SEC-OTHER', name: 'Elsewhere', model: 'SEC-AC2' });
  const noData = { webSshAccess: 0, webSshLevel: 5, cfgReadLevel: 5, cfgWriteLevel: 5, cfgDownloadLevel: 5, paramLevel: 5, docLevel: 5, attachLevel: 5, emailAlarm: false, userAccess: false };
  const role = await w.root.must('POST', '/api/auth/sys/role/add', { name: 'Secure viewer', customerId: customer.id });
  await w.root.must('POST', '/api/auth/sys/role/auth/menu', { id: role.id, keys: ['auth_home', 'auth_my', 'auth_device', 'auth_device_list', 'auth_device_detail'] });
  await w.root.must('POST', '/api/auth/sys/role/auth/data', { id: role.id, customerAccess: 1, siteAccess: 0, ...noData });
  const k = await w.root.key();
  await w.root.must('POST', '/api/auth/sys/user/add', {
    userName: 'secure_viewer', keyId: k.keyId, password: await k.fresh('Secure#View123'), roleId: role.id, customerId: customer.id, email: 'secure_viewer@example.com',
  });
  await (await new Api(w.server.url).login('secure_viewer', 'Secure#View123')).acceptPrivacy();
  const viewer = await openBrowser('zh-CN');
  try {
    await viewer.context.addInitScript(() => localStorage.setItem('chargeops_locale', 'zh-CN'));
    const page = await viewer.page();
    await signIn(page, w.server.url, 'secure_viewer', 'Secure#View123', `/manage/device/detail/${device.id}/security`);
    await page.getByTestId('device-certificates').locator('tbody tr', { hasText: SN }).first().waitFor();
    assert.equal(await page.getByTestId('security-choose').count(), 0, 'no profile change without auth_device_edit');
    assert.equal(await page.getByTestId('security-renew').count(), 0, 'no renewal without its keys');
    await shot(page, 'security-viewer-zh');
    await page.goto(`${w.server.url}/manage/device/detail/${other.device.id}/security`);
    await page.getByText('E2E-SEC-OTHER').waitFor({ state: 'detached', timeout: 3000 }).catch(() => undefined);
    assert.equal(await page.getByTestId('device-security').count(), 0, 'another customer\'s device shows no Security tab');
    assert.equal(await page.getByText('E2E-SEC-OTHER').count(), 0, 'nor its SN');
    // the charge-point CA is platform data: a customer's viewer gets no CA tab
    await page.goto(`${w.server.url}/manage/system/list?tab=ca`);
    await page.getByTestId('page-noauth').waitFor();
    assert.equal(await page.getByTestId('ca-card').count(), 0, 'no CA card for a customer\'s viewer');
    await shot(page, 'security-viewer-ca-zh');
  } finally {
    await viewer.close();
  }
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
    // the Charge-point CA tab, in Chinese too
    await page.goto(`${w.server.url}/manage/system/list?tab=ca`);
    await page.getByTestId('ca-source').getByText('内置', { exact: false }).waitFor();
    const ca = await page.getByTestId('ca-card').innerText();
    assert.match(ca, /本节点可签发/);
    assert.doesNotMatch(ca, /Built in|Signs on this node|Download the CA/, 'no English on the CA card');
    await page.getByTestId('fleet-certificates-table').locator('tbody tr', { hasText: SN }).first().getByText(/剩余 \d+ 天/).waitFor();
    await shot(page, 'security-ca-zh');
  } finally {
    await zh.close();
  }
});

// Security events (docs/security-profiles.md, "Security events"): the strict ocpp-rpc charger's
// SecurityEventNotifications pass its 1.6 security schemas both ways; the critical one opens an
// alarm that the charger's own StatusNotification does not end; the tab's card lists both and
// root's acknowledgement ends the alarm; the card exports an xlsx file.
test('security events: a critical and a non-critical one are listed; the charger\'s status leaves the alarm; acknowledging ends it', async () => {
  const at = new Date(Date.now() - 60_000).toISOString();
  assert.deepEqual(await charger.call('SecurityEventNotification', { type: 'TamperDetectionActivated', timestamp: at, techInfo: 'E2E enclosure opened' }), {});
  assert.deepEqual(await charger.call('SecurityEventNotification', { type: 'InvalidMessages', timestamp: new Date().toISOString() }), {});
  await charger.call('StatusNotification', { connectorId: 0, errorCode: 'NoError', status: 'Available' });
  const listed = await w.root.must('POST', '/api/auth/sys/dev/security/event/list', { deviceId: device.id });
  assert.deepEqual(listed.list.map((e) => [e.type, e.critical, e.alarmOpen]), [['InvalidMessages', false, false], ['TamperDetectionActivated', true, true]]);

  const page = await rootPage(w.browser, w.server, { to: `/manage/device/detail/${device.id}/security` });
  const card = page.getByTestId('device-security-events');
  const row = card.locator('tbody tr', { hasText: 'Tamper detection activated' });
  await row.waitFor();
  const text = await row.innerText();
  assert.match(text, /TamperDetectionActivated/, 'the raw type beside its name');
  assert.match(text, /E2E enclosure opened/);
  await row.getByTestId('sec-event-alarm-open').waitFor();
  assert.equal(await card.locator('tbody tr', { hasText: 'Invalid messages' }).getByTestId('sec-event-ack').count(), 0, 'nothing to acknowledge without an alarm');
  const [file] = await Promise.all([page.waitForEvent('download'), card.getByTestId('sec-events-export').click()]);
  assert.equal(readFileSync(await file.path()).subarray(0, 2).toString(), 'PK', 'an xlsx file');
  await shot(page, 'security-events-en');

  await row.getByTestId('sec-event-ack').click();
  await page.locator('.ant-modal-confirm-title', { hasText: `Acknowledge this Tamper detection activated event of ${SN}?` }).waitFor();
  await confirmOk(page);
  await row.getByTestId('sec-event-alarm-ended').waitFor();
  const after = await w.root.must('POST', '/api/auth/sys/dev/security/event/list', { deviceId: device.id, critical: true });
  assert.equal(after.list[0].alarmOpen, false);
  await page.close();

  const zh = await openBrowser('zh-CN');
  try {
    await zh.context.addInitScript(() => localStorage.setItem('chargeops_locale', 'zh-CN'));
    const zp = await zh.page();
    await signIn(zp, w.server.url, ROOT_NAME, ROOT_PASSWORD, `/manage/device/detail/${device.id}/security`);
    const zcard = zp.getByTestId('device-security-events');
    await zcard.locator('.ant-card-head', { hasText: '安全事件' }).waitFor();
    const zrow = zcard.locator('tbody tr', { hasText: '防拆检测触发' });
    await zrow.waitFor();
    assert.match(await zrow.innerText(), /严重[\s\S]*已结束/);
    await shot(zp, 'security-events-zh');
  } finally {
    await zh.close();
  }
});
