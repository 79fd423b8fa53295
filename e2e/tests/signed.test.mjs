// Issue 23, signed firmware and logs (docs/security-profiles.md, "Signed firmware and logs"),
// with a charger chargeops did not write: ocpp-rpc in strict mode, which checks every call it is
// sent against the OCPP 1.6 security whitepaper's schemas and answers a wrong one with a
// CALLERROR. Root registers a firmware file with its signing certificate (loaded from a PEM
// file) and signature in the console; the file is listed "signed"; sending it gives the charger
// SignedUpdateFirmware, and the charger checks the signature over the bytes it downloads with
// the certificate it was sent before reporting its steps (SignedFirmwareStatusNotification) to
// Installed. Root then asks for the security log (GetLog); the charger uploads it to the URL it
// was given, reports LogStatusNotification, and the log is in the device's attachments. An
// operator without auth_device_certificate is offered the diagnostics log only and is refused
// the security log by the server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createPrivateKey, randomBytes, sign, verify, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Api, chargerFixture, confirmOk, eventually, rootPage, setUp, signIn, tearDown } from '../lib.mjs';

const SN = 'E2E-SIGNED-01';
const OPERATOR = 'signed_ops';
const OPERATOR_PASSWORD = 'Signed#Ops123';

let w;
let fx;
const signedCalls = [];
const logCalls = [];
const problems = []; // what went wrong in the charger's own steps, reported by the test

before(async () => {
  w = await setUp('signed');
});

after(async () => {
  await fx?.charger?.close({ force: true }).catch(() => undefined);
  await tearDown(w);
});

/** The firmware maker's signing key and certificate, made by openssl. */
function signer() {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '30',
    '-keyout', join(w.dir, 'signer.key'), '-out', join(w.dir, 'signer.pem'), '-subj', '/CN=E2E Firmware Signer/O=E2E Maker'], { stdio: 'pipe' });
  return { key: createPrivateKey(readFileSync(join(w.dir, 'signer.key'))), pem: readFileSync(join(w.dir, 'signer.pem'), 'utf8') };
}

/** What the charger does after accepting a SignedUpdateFirmware: download, check, install. */
async function install(charger, req) {
  const step = (status) => charger.call('SignedFirmwareStatusNotification', { status, requestId: req.requestId });
  await step('Downloading');
  const r = await fetch(req.firmware.location);
  if (r.status !== 200) throw new Error(`firmware download: HTTP ${r.status}`);
  const bytes = Buffer.from(await r.arrayBuffer());
  await step('Downloaded');
  const key = new X509Certificate(req.firmware.signingCertificate).publicKey;
  if (!verify('sha256', bytes, key, Buffer.from(req.firmware.signature, 'base64'))) {
    await step('InvalidSignature');
    return;
  }
  await step('SignatureVerified');
  await step('Installing');
  await step('Installed');
}

/** What the charger does after accepting a GetLog: upload the log, report each step. */
async function upload(charger, req) {
  const step = (status) => charger.call('LogStatusNotification', { status, requestId: req.requestId });
  await step('Uploading');
  const r = await fetch(`${req.log.remoteLocation}&name=security.log`, {
    method: 'PUT', headers: { 'Content-Type': 'text/plain' }, body: '2026-01-01T00:00:00Z FirmwareUpdated\n2026-01-01T00:05:00Z SettingSystemTime\n',
  });
  if (r.status !== 201) throw new Error(`log upload: HTTP ${r.status}`);
  await step('Uploaded');
}

test('signed firmware and a security log, end to end with a strict charger', async (t) => {
  fx = await chargerFixture(w.server, w.root, { sn: SN, name: 'Signed', model: 'SIGNED-AC-22' });
  const { charger, device, customer } = fx;
  // the charger answers after the answer has gone out, as a real one does
  const later = (f) => setTimeout(() => f().catch((e) => problems.push(e.message)), 0);
  charger.handle('SignedUpdateFirmware', ({ params }) => {
    signedCalls.push(params);
    later(() => install(charger, params));
    return { status: 'Accepted' };
  });
  charger.handle('GetLog', ({ params }) => {
    logCalls.push(params);
    later(() => upload(charger, params));
    return { status: 'Accepted', filename: 'security.log' };
  });
  await charger.connect();
  const boot = await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'SIGNED-AC-22', firmwareVersion: '4.0.0' });
  assert.equal(boot.status, 'Accepted');
  await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available', timestamp: new Date().toISOString() });

  const { key, pem } = signer();
  const image = randomBytes(4096);
  const signature = sign('sha256', image, key).toString('base64');
  const history = async () => (await w.root.must('POST', '/api/auth/sys/dev/control/list', { deviceId: device.id, page: 1, pageSize: 10 })).list;
  const page = await rootPage(w.browser, w.server, { to: `/manage/device/detail/${device.id}/remote` });
  const card = page.getByTestId('remote-firmware');

  await t.test('the console registers a signed firmware file, listed as signed', async () => {
    await card.locator('input[type=file]').first().setInputFiles({ name: 'fw-5.0.bin', mimeType: 'application/octet-stream', buffer: image });
    await card.getByText('Signed firmware (optional)').click();
    await card.getByTestId('firmware-signing').locator('input[type=file]').setInputFiles({ name: 'signer.pem', mimeType: 'text/plain', buffer: Buffer.from(pem) });
    await eventually(async () => (await page.getByTestId('firmware-certificate').inputValue()).includes('BEGIN CERTIFICATE'), 5000, 'the certificate read from its file');
    await page.getByTestId('firmware-signature').fill(signature);
    await page.getByTestId('firmware-upload').click();
    await card.getByTestId('firmware-select').getByTestId('firmware-signed').waitFor();
    const files = await w.root.must('POST', '/api/auth/sys/dev/firmware/list', { page: 1, pageSize: 10 });
    assert.equal(files.list.length, 1);
    assert.equal(files.list[0].name, 'fw-5.0.bin');
    assert.equal(files.list[0].signed, true);
  });

  await t.test('sending it gives the charger SignedUpdateFirmware; its steps reach Installed', async () => {
    await page.getByTestId('control-5').click();
    await confirmOk(page);
    await page.locator('[data-testid="command-results"] [data-testid="command-result"][data-result="2"]').waitFor({ timeout: 20000 });
    const req = await eventually(() => signedCalls[0], 10000, 'SignedUpdateFirmware at the charger');
    assert.equal(req.firmware.signingCertificate, pem.trim());
    assert.equal(req.firmware.signature, signature);
    assert.ok(Number.isInteger(req.requestId));
    assert.match(req.firmware.location, /\/fleet\/files\/firmware\/\d+\/firmware\.bin\?exp=/);
    const cmd = await eventually(async () => (await history()).find((c) => c.controlType === 5 && c.progress === 'Installed'), 15000,
      'the command at Installed', () => JSON.stringify({ problems }));
    assert.equal(cmd.id % 2 ** 31, req.requestId);
    assert.deepEqual(problems, []);
  });

  await t.test('the security log is asked for, uploaded and lands in the device\'s attachments', async () => {
    await page.getByTestId('getlog-type').click();
    await page.locator('.ant-select-item-option', { hasText: 'Security log' }).click();
    await page.getByTestId('control-25').click();
    await confirmOk(page);
    const req = await eventually(() => logCalls[0], 10000, 'GetLog at the charger');
    assert.equal(req.logType, 'SecurityLog');
    assert.match(req.log.remoteLocation, /\/fleet\/files\/diagnostics\/\d+\/\d+\?exp=/);
    const cmd = await eventually(async () => (await history()).find((c) => c.controlType === 25 && c.progress === 'Uploaded'), 15000,
      'the GetLog at Uploaded', () => JSON.stringify({ problems }));
    assert.equal(cmd.result, 2);
    assert.equal(cmd.message, 'security.log', 'the file name the charger gave');
    // a triggered status names no request: the schema allows it, chargeops takes it
    await charger.call('LogStatusNotification', { status: 'Idle' });
    assert.deepEqual(problems, []);
    // the device's log-upload card lists it (re-read after the accepted GetLog)
    await page.getByTestId('remote-diagnostics').locator('tr', { hasText: 'SecurityLog-security.log' }).waitFor({ timeout: 15000 });
    // and the attachments, in diagnostics/<SN>
    const tree = await w.root.must('GET', `/api/auth/sys/attach/folder/tree?customerId=${customer.id}`);
    const folder = tree.find((f) => f.path === 'diagnostics')?.children?.find((f) => f.path === `diagnostics/${SN}`);
    assert.ok(folder, `diagnostics/${SN} in ${JSON.stringify(tree)}`);
    await page.goto(`${w.server.url}/manage/attach/list?customer=${customer.id}&folder=${folder.id}`);
    await page.getByTestId('attach-file-name').filter({ hasText: 'SecurityLog-security.log' }).waitFor();
  });

  await t.test('without auth_device_certificate: the diagnostics log only, the security log refused', async () => {
    const role = await w.root.must('POST', '/api/auth/sys/role/add', { name: 'Log readers' });
    await w.root.must('POST', '/api/auth/sys/role/auth/menu', { id: role.id, keys: ['auth_device', 'auth_device_list', 'auth_device_detail', 'auth_device_edit', 'auth_my'] });
    await w.root.must('POST', '/api/auth/sys/role/auth/data', {
      id: role.id, customerAccess: 0, siteAccess: 0, webSshAccess: 0, webSshLevel: 5, cfgReadLevel: 5, cfgWriteLevel: 5,
      cfgDownloadLevel: 5, paramLevel: 5, docLevel: 5, attachLevel: 5, emailAlarm: false, userAccess: false,
    });
    const k = await w.root.key();
    await w.root.must('POST', '/api/auth/sys/user/add', {
      userName: OPERATOR, keyId: k.keyId, password: await k.fresh(OPERATOR_PASSWORD), roleId: role.id, email: `${OPERATOR}@example.com`,
    });
    const ops = await new Api(w.server.url).login(OPERATOR, OPERATOR_PASSWORD);
    await ops.acceptPrivacy();
    const refused = await ops.call('POST', '/api/auth/sys/dev/control/send', { deviceIds: [device.id], controlType: 25, params: { logType: 'SecurityLog' } });
    assert.equal(refused.code, 20013, JSON.stringify(refused));
    assert.equal(logCalls.length, 1, 'nothing sent');

    await w.browser.context.clearCookies();
    const p = await w.browser.context.newPage();
    await signIn(p, w.server.url, OPERATOR, OPERATOR_PASSWORD, `/manage/device/detail/${device.id}/remote`);
    await p.getByTestId('getlog-type').click();
    await p.locator('.ant-select-item-option', { hasText: 'Diagnostics log' }).waitFor();
    assert.equal(await p.locator('.ant-select-item-option', { hasText: 'Security log' }).count(), 0);
    await p.close();
  });
  await page.close();
});
