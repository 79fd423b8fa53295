// Issue 14 browser flow, remote access: a charger simulated by `chargeops sim` (which answers
// VpnStart by dialling the tunnel and serves a web page and an SSH server through it). On the
// device page root opens an SSH link, sees it open with a live countdown, opens the charger's
// own web page (its title carries the SN) in a new tab, opens the terminal, types `hostname`
// and reads the SN back from the xterm rows, restarts the link, then closes it; the Remote
// Sessions tab lists the sessions with the audited input. An engineer whose role has "Only Web
// Engineer" access may open a WEB link only, and gets no terminal.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, openBrowser, Api, signIn, eventually, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const binary = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'chargeops');
const PREFIX = 'E2E-RL-';
const SN = `${PREFIX}0001`;
// The simulator's SSH account (docs/remote-access.md, "Simulator").
const SIM_USER = 'root';
const SIM_PASSWORD = 'Charger#2024';
const ENGINEER = 'web_engineer';
const ENGINEER_PASSWORD = 'Web#Eng12345';

let server;
let browser;
let root;
let sim;
let simOutput = '';

before(async () => {
  server = await startServer();
  browser = await openBrowser();
  root = await new Api(server.url).login(ROOT_NAME, ROOT_PASSWORD);
  await root.acceptPrivacy();
});

after(async () => {
  if (sim && sim.exitCode === null) {
    sim.kill('SIGTERM');
    await new Promise((r) => (sim.exitCode !== null ? r() : sim.on('exit', r)));
  }
  await browser?.close();
  await server?.stop();
});

const until = (what, check, timeoutMs = 20000) => eventually(check, timeoutMs, what, () => `sim:\n${simOutput}\nserver:\n${server.output()}`);

/** Waits for the remote link panel's state (none, opening, open, closed); a timeout says what the panel shows. */
async function waitState(page, state, timeout = 15000) {
  try {
    await page.locator(`[data-testid="remote-link"][data-state="${state}"]`).waitFor({ timeout });
  } catch (e) {
    const shown = await page.getByTestId('remote-link').textContent().catch(() => '?');
    throw new Error(`remote link panel not ${state}: ${shown}\n${e.message}`);
  }
}

/** The text of the terminal's rows, one string per row. */
const terminalRows = (page) =>
  page.evaluate(() => [...document.querySelectorAll('[data-testid="terminal"] .xterm-rows > div')].map((d) => d.textContent ?? ''));

test('open a remote link to a simulated charger, see its web page, run a command in the terminal, close the link', async () => {
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Remote Co', code: 'REMOTECO' });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: 'Remote Yard', code: 'REMOTE-01' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'REMOTE-AC-22', deviceType: 1, supportsSsh: true, supportsWeb: true });
  const device = await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: SN, name: 'Bay R', modelId: model.id, siteId: site.id, maintenanceCycle: 90 });

  // the charger: chargeops' own simulator, which carries the charger side of the link
  sim = spawn(binary, ['sim', '--url', `${server.url.replace('http', 'ws')}/ocpp`, '--devices', '1', '--prefix', PREFIX, '--fault-chance', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  sim.stdout.on('data', (d) => (simOutput += d));
  sim.stderr.on('data', (d) => (simOutput += d));
  await until('the charger online', async () => (await root.must('GET', `/api/auth/sys/dev/basic/detail?id=${device.id}`)).status !== 0);

  const page = await browser.page();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD, `/manage/device/detail/${device.id}/remote`);
  const panel = page.getByTestId('remote-link');
  await waitState(page, 'none');
  assert.equal(await panel.getByTestId('link-state').textContent(), 'No link');

  // Open link: SSH, 30 minutes
  await panel.getByTestId('link-open').click();
  const form = page.getByTestId('link-open-form');
  await form.getByText('SSH terminal').click();
  await form.getByTestId('link-minutes').fill('30');
  await page.getByTestId('link-open-ok').click();
  await waitState(page, 'open', 30000);
  assert.equal(await panel.getByTestId('link-kind-value').textContent(), 'SSH terminal');

  // the remaining time counts down by itself
  const remaining = panel.getByTestId('link-remaining');
  const first = await remaining.textContent();
  assert.match(first, /^(29:[0-5]\d|30:00)$/);
  await page.waitForFunction((t) => document.querySelector('[data-testid="link-remaining"]')?.textContent !== t, first, { timeout: 5000 });

  // the charger's own web page, through the link, in a new tab
  const [web] = await Promise.all([page.waitForEvent('popup'), panel.getByTestId('link-web').click()]);
  await web.waitForURL('**/remote/web/**');
  await web.waitForLoadState('load');
  assert.ok((await web.title()).includes(SN), `the page title names the charger: ${await web.title()}`);
  await web.close();

  // the terminal: username, password and port, then a shell on the charger
  await panel.getByTestId('link-terminal').click();
  const dialog = page.getByTestId('terminal-dialog');
  await dialog.getByTestId('terminal-username').fill(SIM_USER);
  await dialog.getByTestId('terminal-password').fill(SIM_PASSWORD);
  await dialog.getByTestId('terminal-port').fill('22');
  await dialog.getByTestId('terminal-connect').click();
  await dialog.locator('[data-testid="terminal-status"][data-phase="ready"]').waitFor({ timeout: 20000 });
  await dialog.locator('[data-testid="terminal"] .xterm-rows').waitFor();
  await dialog.getByTestId('terminal').click();
  await page.keyboard.type('hostname');
  await page.keyboard.press('Enter');
  await until('the output of hostname', async () => (await terminalRows(page)).some((row) => row.trim() === SN), 15000);
  // the command line itself is echoed too
  assert.ok((await terminalRows(page)).some((row) => row.includes('hostname')));
  await dialog.getByTestId('terminal-close').click();
  await dialog.waitFor({ state: 'detached' });

  // Restart link (vpn/restart): destroyed and opened again, same kind
  const before = (await root.must('GET', `/api/auth/sys/dev/link/status?deviceId=${device.id}`)).link;
  await panel.getByTestId('link-restart').click();
  await page.getByTestId('confirm-ok').click();
  await until('the restarted link', async () => {
    const l = (await root.must('GET', `/api/auth/sys/dev/link/status?deviceId=${device.id}`)).link;
    return l && l.id !== before.id && l.status === 2;
  });
  await waitState(page, 'open');
  assert.equal(await panel.getByTestId('link-kind-value').textContent(), 'SSH terminal');

  // Close link
  await panel.getByTestId('link-close').click();
  await page.getByTestId('confirm-ok').click();
  await waitState(page, 'closed', 20000);
  assert.equal(await panel.getByTestId('link-terminal').count(), 0, 'no terminal on a closed link');
  assert.equal(await panel.getByTestId('link-web').count(), 0, 'no web page on a closed link');
  await panel.getByTestId('link-open').waitFor();

  // Remote Sessions: the terminal session with what was typed (root holds auth_logs_action)
  await page.getByRole('tab', { name: 'Remote Sessions' }).click();
  await page.waitForURL(`**/manage/device/detail/${device.id}/sessions`);
  const sessions = page.getByTestId('remote-sessions');
  await sessions.locator('tr', { hasText: 'Terminal' }).first().waitFor();
  await sessions.getByTestId('session-input').first().click();
  await page.getByTestId('session-input-text').filter({ hasText: 'hostname' }).waitFor();
});

test('an engineer with "Only Web Engineer" access opens a WEB link, never SSH or a terminal', async () => {
  const device = (await root.must('POST', '/api/auth/sys/dev/basic/list', { page: 1, pageSize: 10 })).list.find((d) => d.sn === SN);
  const role = await root.must('POST', '/api/auth/sys/role/add', { name: 'Web engineers' });
  await root.must('POST', '/api/auth/sys/role/auth/menu', {
    id: role.id, keys: ['auth_device', 'auth_device_list', 'auth_device_detail', 'auth_device_edit', 'auth_my'],
  });
  await root.must('POST', '/api/auth/sys/role/auth/data', {
    id: role.id, customerAccess: 0, siteAccess: 0, webSshAccess: 3, webSshLevel: 5, cfgReadLevel: 5, cfgWriteLevel: 5,
    cfgDownloadLevel: 5, paramLevel: 5, docLevel: 5, attachLevel: 5, emailAlarm: false, userAccess: false,
  });
  const k = await root.key();
  await root.must('POST', '/api/auth/sys/user/add', {
    userName: ENGINEER, keyId: k.keyId, password: await k.fresh(ENGINEER_PASSWORD), roleId: role.id, email: `${ENGINEER}@example.com`,
  });
  await (await new Api(server.url).login(ENGINEER, ENGINEER_PASSWORD)).acceptPrivacy();

  await browser.context.clearCookies();
  const page = await browser.page();
  await signIn(page, server.url, ENGINEER, ENGINEER_PASSWORD, `/manage/device/detail/${device.id}/remote`);
  const panel = page.getByTestId('remote-link');
  await panel.getByTestId('link-open').click();
  const form = page.getByTestId('link-open-form');
  assert.equal(await form.locator('input[value="ssh"]').isDisabled(), true, 'SSH is not offered');
  assert.equal(await form.locator('input[value="web"]').isChecked(), true);
  await page.getByTestId('link-open-ok').click();
  await waitState(page, 'open', 30000);
  assert.equal(await panel.getByTestId('link-kind-value').textContent(), 'WEB page');
  await panel.getByTestId('link-web').waitFor();
  assert.equal(await panel.getByTestId('link-terminal').count(), 0, 'no terminal for a web-only role');
  assert.equal((await root.must('GET', `/api/auth/sys/dev/link/status?deviceId=${device.id}`)).link.account, 'engineer');
  await panel.getByTestId('link-close').click();
  await page.getByTestId('confirm-ok').click();
  await waitState(page, 'closed', 20000);
});
