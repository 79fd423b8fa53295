// Browser-test harness: starts a real bin/chargeops on a fresh SQLite folder, drives Debian's
// Chromium through playwright-core, and talks to the API like the console does (Web Crypto).
import { spawn, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import { webcrypto } from 'node:crypto';
import { chromium } from 'playwright-core';
import { RPCClient } from 'ocpp-rpc';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const binary = join(root, 'bin', 'chargeops');

export const ROOT_NAME = 'root_admin';
export const ROOT_PASSWORD = 'Root#Pass123';

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Passes when cond() stays false for ms milliseconds and fails as soon as it turns true, naming
 * what came: the twin of testutil.Never, a watch for something that must not happen instead of a
 * fixed wait before one assertion. cond may be async; it is polled every 20 ms and once more at
 * the end of the window.
 */
export async function never(cond, ms, what) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await cond()) throw new Error(`${what} (within ${ms} ms)`);
    const left = deadline - Date.now();
    if (left <= 0) return;
    await new Promise((r) => setTimeout(r, Math.min(20, left)));
  }
}

/**
 * Waits until cond() answers something truthy and returns it, polling every 200 ms; after ms it
 * fails naming what it waited for, with detail() (what the test saw meanwhile) when given. The
 * twin of `never`; cond may be async.
 */
export async function eventually(cond, ms, what, detail) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${detail ? `\n${detail()}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Clicks a confirm dialog's OK and waits for the dialog to close. Twice in CI on a fully loaded
 * machine the click was lost (the dialog stayed, its OK not loading); a lost click is tried once
 * more after 5 s. A click that did land shows OK loading, which takes no second click.
 */
export async function confirmOk(page) {
  const ok = page.getByTestId('confirm-ok');
  await ok.click();
  try {
    await ok.waitFor({ state: 'detached', timeout: 5000 });
  } catch {
    if (await ok.count()) await ok.click().catch(() => {});
    await ok.waitFor({ state: 'detached' });
  }
}

/**
 * The data folder every test server starts from: migrated, with root created, made once per
 * build of the binary (by the first test file that needs it) and copied for each server. Made
 * per server, the migrations and root's argon2id hash were about 1.4 CPU-s of each test file.
 * Written under a private name and renamed, so a file running beside never copies half of it.
 */
function rootDataDir() {
  const st = statSync(binary);
  const name = `chargeops-e2e-root-${st.size}-${Math.trunc(st.mtimeMs)}`;
  const dir = join(tmpdir(), name);
  if (existsSync(dir)) return dir;
  const work = mkdtempSync(join(tmpdir(), 'chargeops-e2e-root-build-'));
  execFileSync(binary, ['user', 'create-root', '--data-dir', work, '--name', ROOT_NAME, '--password', ROOT_PASSWORD], { stdio: 'pipe' });
  try {
    renameSync(work, dir);
  } catch {
    rmSync(work, { recursive: true, force: true }); // the file beside made it first
  }
  // folders of earlier builds
  for (const old of readdirSync(tmpdir())) {
    if (old.startsWith('chargeops-e2e-root-') && old !== name && !old.startsWith('chargeops-e2e-root-build-')) {
      rmSync(join(tmpdir(), old), { recursive: true, force: true });
    }
  }
  return dir;
}

/** Starts chargeops with a root user; extraArgs go to `serve`. Call stop() when done. */
export async function startServer(extraArgs = []) {
  const dataDir = mkdtempSync(join(tmpdir(), 'chargeops-e2e-'));
  cpSync(rootDataDir(), dataDir, { recursive: true });
  const port = await freePort();
  // the embedded MQTT broker on a port of its own (storage units, docs/mqtt.md), beside any on 1883
  const mqttPort = await freePort();
  // the tests' chargers (ocpp-rpc) have no keys: admitted as the demo admits them
  const proc = spawn(binary, ['serve', '--addr', `127.0.0.1:${port}`, '--mqtt-addr', `127.0.0.1:${mqttPort}`, '--data-dir', dataDir, '--captcha=false', '--log-level', 'warn', '--require-device-keys=false', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout.on('data', (d) => (output += d));
  proc.stderr.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20000;
  for (;;) {
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`chargeops did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    mqttPort,
    output: () => output,
    async stop() {
      proc.kill('SIGTERM');
      await new Promise((r) => (proc.exitCode !== null ? r() : proc.on('exit', r)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A server speaking `locale` by default, a browser in that language and root's API session
 * (privacy policy accepted): the set-up of a test file that runs in each language.
 */
export async function localeFixture(locale, extraArgs = []) {
  const server = await startServer(['--default-locale', locale, ...extraArgs]);
  const browser = await openBrowser(locale);
  await browser.context.addInitScript((l) => localStorage.setItem('chargeops_locale', l), locale);
  const root = await new Api(server.url).login(ROOT_NAME, ROOT_PASSWORD);
  await root.acceptPrivacy();
  return { server, browser, root };
}

/**
 * The usual set-up of a test file: a server, a browser, root's API session (privacy policy
 * accepted) and a scratch directory named after prefix. Undo it with tearDown.
 */
export async function setUp(prefix, extraArgs = []) {
  const server = await startServer(extraArgs);
  const browser = await openBrowser();
  const root = await new Api(server.url).login(ROOT_NAME, ROOT_PASSWORD);
  await root.acceptPrivacy();
  return { server, browser, root, dir: mkdtempSync(join(tmpdir(), `chargeops-${prefix}-`)) };
}

/** Closes what setUp opened and removes its scratch directory. */
export async function tearDown(w) {
  await w?.browser?.close();
  await w?.server?.stop();
  if (w?.dir) rmSync(w.dir, { recursive: true, force: true });
}

/** Opens a fresh headless Chromium profile. */
export async function openBrowser(locale = 'en-US') {
  const profile = mkdtempSync(join(tmpdir(), 'chargeops-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    locale,
    viewport: { width: 1366, height: 860 },
    // the console honours "reduce motion" (web/src/utils/motion.ts): dialogs, drawers and toasts
    // appear without animation, so a click never lands on a dialog still zooming in, and the
    // software renderer draws far fewer frames
    reducedMotion: 'reduce',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  context.setDefaultTimeout(15000);
  return {
    context,
    async page() {
      return context.pages()[0] ?? context.newPage();
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

function b64(buf) {
  return Buffer.from(buf).toString('base64');
}

async function sha256hex(s) {
  const d = await webcrypto.subtle.digest('SHA-256', new TextEncoder().encode(s));
  return Buffer.from(d).toString('hex');
}

/** An API session that signs in like the console (RSA-OAEP sealed fields, cookies, CSRF). */
export class Api {
  constructor(url) {
    this.url = url;
    this.cookies = {};
  }

  async call(method, path, body) {
    const headers = { 'Content-Type': 'application/json', 'Accept-Language': 'en-US' };
    const cookie = Object.entries(this.cookies).map(([k, v]) => `${k}=${v}`).join('; ');
    if (cookie) headers.Cookie = cookie;
    if (this.cookies.chargeops_csrf && method !== 'GET') headers['X-CSRF-Token'] = this.cookies.chargeops_csrf;
    const r = await fetch(this.url + path, { method, headers, body: method === 'GET' ? undefined : JSON.stringify(body ?? {}) });
    for (const c of r.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      this.cookies[pair.slice(0, i)] = pair.slice(i + 1);
    }
    return r.json();
  }

  async must(method, path, body) {
    const a = await this.call(method, path, body);
    if (a.code !== 0) throw new Error(`${method} ${path}: ${a.code} ${a.message}`);
    return a.data;
  }

  async key() {
    const k = await this.must('GET', '/api/unauth/login/key');
    const der = Buffer.from(k.publicKey.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
    const pub = await webcrypto.subtle.importKey('spki', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
    const seal = async (text) => b64(await webcrypto.subtle.encrypt({ name: 'RSA-OAEP' }, pub, new TextEncoder().encode(text)));
    return {
      keyId: k.keyId,
      seal,
      checked: async (pw) => seal(`${k.nonce}:${await sha256hex(pw)}`),
      fresh: async (pw) => seal(`${k.nonce}:${pw}`),
    };
  }

  async login(name, password) {
    const k = await this.key();
    await this.must('POST', '/api/unauth/login', { keyId: k.keyId, userName: await k.seal(name), password: await k.checked(password) });
    return this;
  }

  /** Creates a role holding keys and a user with it (root only). */
  async createUser(name, password, keys) {
    const role = await this.must('POST', '/api/auth/sys/role/add', { name: `role of ${name}` });
    await this.must('POST', '/api/auth/sys/role/auth/menu', { id: role.id, keys });
    const k = await this.key();
    return this.must('POST', '/api/auth/sys/user/add', {
      userName: name, keyId: k.keyId, password: await k.fresh(password), roleId: role.id, email: `${name}@example.com`,
    });
  }

  async acceptPrivacy() {
    const info = await this.must('POST', '/api/unauth/info');
    await this.must('POST', '/api/auth/sys/user/owner/privacy', { version: info.privacy.newPrivacyPolicyVersion });
  }
}

/**
 * One charger in its place, registered by root: a customer "<name> Co" (code <NAME>CO), its site
 * "<name> Yard" (<NAME>-01), the model (with `items`, e.g. config items), the device "<name> bay"
 * with `sn`, and an ocpp-rpc client for it in strict mode, not connected yet (add handlers, then
 * `charger.connect()`). `protocols` are the sub-protocols the client offers (default OCPP 1.6J
 * only; `['ocpp2.0.1']` makes a 2.0.1 charging station).
 */
export async function chargerFixture(server, root, { sn, name, model, items = [], protocols = ['ocpp1.6'] }) {
  const code = name.toUpperCase();
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: `${name} Co`, code: `${code}CO` });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: `${name} Yard`, code: `${code}-01` });
  const m = await root.must('POST', '/api/auth/sys/dev/model/add', { name: model, deviceType: 1 });
  for (const item of items) await root.must('POST', '/api/auth/sys/dev/model/item/add', { modelId: m.id, ...item });
  const device = await root.must('POST', '/api/auth/sys/dev/basic/add', { sn, name: `${name} bay`, modelId: m.id, siteId: site.id, maintenanceCycle: 90 });
  const charger = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: sn, protocols, strictMode: true, reconnect: false });
  return { customer, site, model: m, device, charger };
}

/**
 * A new page signed in as root (the browser's cookies cleared first), on `to` (a console path)
 * or else its landing page; `viewport` sets its size.
 */
export async function rootPage(browser, server, { viewport, to } = {}) {
  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD, to);
  await page.waitForURL('**/manage/**');
  return page;
}

/**
 * Signs in through the login page. With `to` (a console path such as `/manage/attach/list`) it
 * opens /login?redirect=<to>, as a signed-out visitor of a link does, and waits until the
 * console has gone on there: one page load, not the landing page's and then `to`'s (about
 * 1.5 CPU-s of Chromium less).
 */
export async function signIn(page, url, name, password, to) {
  await page.goto(`${url}/login${to ? `?redirect=${encodeURIComponent(to)}` : ''}`);
  await page.getByTestId('login-username').fill(name);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  if (to) await page.waitForURL((u) => u.pathname + u.search === to);
}
