// Issue 23 browser flow: certificates on the charger (docs/security-profiles.md, "Certificates on
// the charger"). A charger (ocpp-rpc in strict mode: its 1.6 schemas hold the security
// extension's InstallCertificate, GetInstalledCertificateIds and DeleteCertificate) keeps the
// roots it is sent and names them by the hash data OpenSSL computes (an OCSP request's CertID),
// not chargeops' code. Root installs an openssl-made CA from the device's Security tab (a pasted
// text that is no PEM is refused in the dialog and nothing is sent; the .pem is then picked as a
// file), sees it listed with its subject, reads the charger (the row keeps its subject under the
// charger's own hex), and deletes it: the charger is asked with the hash data it gave, and the
// row goes. Screenshots go to CHARGEOPS_E2E_SHOTS when set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { setUp, tearDown, chargerFixture, rootPage, confirmOk, eventually, never } from '../lib.mjs';

const shots = process.env.CHARGEOPS_E2E_SHOTS;
const SN = 'E2E-ROOTS-0001';
const CENTRAL = 'CentralSystemRootCertificate';
const MANUFACTURER = 'ManufacturerRootCertificate';
let w;
let device;
let charger;
// what the charger holds, per type, and every call it got
const held = { [CENTRAL]: [], [MANUFACTURER]: [] };
const calls = [];

before(async () => {
  w = await setUp('certificates');
  ({ device, charger } = await chargerFixture(w.server, w.root, { sn: SN, name: 'Roots', model: 'ROOTS-AC' }));
  charger.handle('InstallCertificate', ({ params }) => {
    calls.push(['InstallCertificate', params]);
    held[params.certificateType].push(hashData(params.certificate));
    return { status: 'Accepted' };
  });
  charger.handle('GetInstalledCertificateIds', ({ params }) => {
    calls.push(['GetInstalledCertificateIds', params]);
    const list = held[params.certificateType];
    return list.length ? { status: 'Accepted', certificateHashData: list } : { status: 'NotFound' };
  });
  charger.handle('DeleteCertificate', ({ params }) => {
    calls.push(['DeleteCertificate', params]);
    for (const list of Object.values(held)) {
      const i = list.findIndex((h) => JSON.stringify(h) === JSON.stringify(params.certificateHashData));
      if (i >= 0) {
        list.splice(i, 1);
        return { status: 'Accepted' };
      }
    }
    return { status: 'NotFound' };
  });
  await charger.connect();
  await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'ROOTS-AC' });
});

after(async () => {
  await charger?.close({ force: true }).catch(() => undefined);
  await tearDown(w);
});

const shot = (page, name) => (shots ? page.screenshot({ path: join(shots, `${name}.png`), fullPage: true }) : undefined);

/** A self-signed CA made by openssl, PEM. */
function newRoot() {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '365',
    '-keyout', join(w.dir, 'root.key'), '-out', join(w.dir, 'root.pem'), '-subj', '/CN=E2E CSMS Root/O=E2E CPO',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], { stdio: 'pipe' });
  return readFileSync(join(w.dir, 'root.pem'), 'utf8');
}

/** The OCPP hash data of a self-signed certificate as OpenSSL's OCSP request names it (SHA256). */
function hashData(pem) {
  const file = join(w.dir, 'installed.pem');
  writeFileSync(file, pem);
  const req = join(w.dir, 'req.der');
  execFileSync('openssl', ['ocsp', '-issuer', file, '-sha256', '-cert', file, '-no_nonce', '-reqout', req], { stdio: 'pipe' });
  const text = execFileSync('openssl', ['ocsp', '-reqin', req, '-req_text'], { encoding: 'utf8' });
  const field = (name) => text.match(new RegExp(`${name}: ([0-9A-Fa-f]+)`))[1];
  return { hashAlgorithm: 'SHA256', issuerNameHash: field('Issuer Name Hash').toLowerCase(), issuerKeyHash: field('Issuer Key Hash').toLowerCase(), serialNumber: field('Serial Number') };
}

test('root installs a root certificate from the Security tab, reads the charger, and deletes it', async () => {
  const page = await rootPage(w.browser, w.server, { to: `/manage/device/detail/${device.id}/security` });
  const card = page.getByTestId('installed-certificates-card');
  const table = page.getByTestId('installed-certificates');
  await card.getByText('No certificate listed yet').waitFor();

  // the dialog refuses what is not a PEM certificate before anything is sent
  await page.getByTestId('installed-install').click();
  await page.getByTestId('installed-pem').fill('this is not a certificate');
  await page.getByTestId('installed-send').click();
  await page.getByText('Not a PEM certificate').waitFor();
  await never(() => calls.length > 0, 500, 'a call reached the charger');

  // the file picker reads the .pem into the dialog
  const pem = newRoot();
  await page.locator('.ant-modal input[type=file]').setInputFiles(join(w.dir, 'root.pem'));
  await eventually(async () => (await page.getByTestId('installed-pem').inputValue()) === pem, 5000, 'the picked file in the dialog');
  await page.getByText('Not a PEM certificate').waitFor({ state: 'detached' });
  await shot(page, 'installed-install-en');
  await page.getByTestId('installed-send').click();
  await page.getByTestId('installed-send').waitFor({ state: 'detached' });
  const [action, params] = await eventually(() => calls.find(([a]) => a === 'InstallCertificate'), 10000, 'InstallCertificate at the charger');
  assert.equal(action, 'InstallCertificate');
  assert.equal(params.certificateType, CENTRAL);
  assert.equal(params.certificate, pem);
  const row = table.locator('tbody tr', { hasText: 'E2E CSMS Root' });
  await row.waitFor();
  assert.match(await row.innerText(), /Central system root/);

  // a read asks for both types, one after the other; the root keeps its subject under the
  // charger's own (upper-case) serial number
  await page.getByTestId('installed-read').click();
  await eventually(() => calls.filter(([a]) => a === 'GetInstalledCertificateIds').length === 2, 15000, 'two GetInstalledCertificateIds',
    () => JSON.stringify(calls));
  assert.deepEqual(calls.filter(([a]) => a === 'GetInstalledCertificateIds').map(([, p]) => p.certificateType), [CENTRAL, MANUFACTURER]);
  const { serialNumber } = held[CENTRAL][0];
  const serial = row.getByTestId('installed-serial');
  await eventually(async () => (await serial.getAttribute('title').catch(() => null)) === serialNumber, 10000, "the charger's serial number on the row",
    () => JSON.stringify(held));
  assert.equal(await table.locator('tbody tr.ant-table-row').count(), 1, 'one certificate listed');
  await shot(page, 'installed-list-en');

  // delete: the charger is asked with the hash data it gave, and the row goes
  const named = { ...held[CENTRAL][0] };
  await row.getByTestId('installed-delete').click();
  await page.locator('.ant-modal-confirm-title', { hasText: `Delete this certificate from ${SN}?` }).waitFor();
  await confirmOk(page);
  const [, del] = await eventually(() => calls.find(([a]) => a === 'DeleteCertificate'), 10000, 'DeleteCertificate at the charger');
  assert.deepEqual(del.certificateHashData, named);
  assert.equal(held[CENTRAL].length, 0, 'the charger deleted the root it held');
  await card.getByText('No certificate listed yet').waitFor();
  await page.close();
});
