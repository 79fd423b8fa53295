// Issue 10 browser flow: a charger (ocpp-rpc, strict mode, a client chargeops did not write)
// faults, and root's home dashboard shows it in the fault pie, the device ranking and the
// recent events without a reload; a customer-A user's dashboard counts only A's devices.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { RPCClient } from 'ocpp-rpc';
import { startServer, openBrowser, Api, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const SN_A = 'DASH-A-0001';
const NO_DATA = { webSshAccess: 0, webSshLevel: 5, cfgReadLevel: 5, cfgWriteLevel: 5, cfgDownloadLevel: 5, paramLevel: 5, docLevel: 5, attachLevel: 5, emailAlarm: false, userAccess: false };

let server;
let browser;
let root;
let charger;

before(async () => {
  server = await startServer();
  browser = await openBrowser();
  root = await new Api(server.url).login(ROOT_NAME, ROOT_PASSWORD);
  await root.acceptPrivacy();
});

after(async () => {
  await charger?.close({ force: true }).catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

const now = () => new Date().toISOString();

/** A new page signed in as name, on the home dashboard. */
async function signedIn(name, password) {
  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  await signIn(page, server.url, name, password, '/manage/home');
  return page;
}

/** The value a figure of the dashboard shows (its data-value). */
async function figure(page, testId) {
  const el = page.getByTestId(testId).first();
  await el.waitFor({ state: 'attached' });
  return Number(await el.getAttribute('data-value'));
}

async function waitFigure(page, testId, want, timeout = 10000) {
  const deadline = Date.now() + timeout;
  let got;
  while (Date.now() < deadline) {
    got = await figure(page, testId).catch(() => undefined);
    if (got === want) return;
    await page.waitForTimeout(100);
  }
  assert.fail(`${testId} shows ${got}, want ${want}`);
}

test('a charger faults: the home dashboard follows live; a customer-A user sees only A', async () => {
  const a = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Dash Alpha', code: 'DASHA' });
  const b = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Dash Bravo', code: 'DASHB' });
  const siteA = await root.must('POST', '/api/auth/sys/site/add', { customerId: a.id, name: 'Alpha Yard', code: 'DASH-A' });
  const siteB = await root.must('POST', '/api/auth/sys/site/add', { customerId: b.id, name: 'Bravo Yard', code: 'DASH-B' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'DASH-AC-22', deviceType: 2 });
  await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: SN_A, name: 'Alpha Bay 1', modelId: model.id, siteId: siteA.id, maintenanceCycle: 90 });
  await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: 'DASH-A-0002', name: 'Alpha Bay 2', modelId: model.id, siteId: siteA.id, maintenanceCycle: 90 });
  for (let i = 1; i <= 3; i++) {
    await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: `DASH-B-000${i}`, name: `Bravo Bay ${i}`, modelId: model.id, siteId: siteB.id, maintenanceCycle: 90 });
  }

  charger = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: SN_A, protocols: ['ocpp1.6'], strictMode: true, reconnect: false });
  await charger.connect();
  await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'DASH-AC-22', firmwareVersion: '1.0.0' });
  await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available', timestamp: now() });

  // root's home dashboard
  const page = await signedIn(ROOT_NAME, ROOT_PASSWORD);
  await page.getByTestId('home-dashboard').waitFor();
  await waitFigure(page, 'home-pie-faults-fault', 0);
  const before = await figure(page, 'home-pie-faults-offline');
  await page.evaluate(() => {
    window.__sameDocument = true;
  });

  // the charger faults
  await charger.call('StatusNotification', { connectorId: 1, errorCode: 'GroundFailure', status: 'Faulted', timestamp: now() });
  await waitFigure(page, 'home-pie-faults-fault', 1);
  await page.getByTestId('home-rank-devices').getByText(SN_A).waitFor({ timeout: 10000 });
  await page.getByTestId('home-recent-events').getByText(SN_A).first().waitFor({ timeout: 10000 });
  assert.equal(await figure(page, 'home-pie-faults-offline'), before, 'the offline count did not move');
  assert.equal(await page.evaluate(() => window.__sameDocument), true, 'the page was not reloaded');
  await page.screenshot({ path: `${process.env.E2E_SHOTS ?? '/tmp'}/home-dashboard.png`, fullPage: true }).catch(() => undefined);

  // the figure opens the list behind it: the open faults, with the charger in it
  await page.getByTestId('home-pie-faults-fault').first().click();
  await page.locator('.ant-drawer').getByText(SN_A).first().waitFor();
  await page.close();

  // a customer-A user: only A's two devices, nothing of B
  const role = await root.must('POST', '/api/auth/sys/role/add', { name: 'Dash Alpha viewers', customerId: a.id });
  await root.must('POST', '/api/auth/sys/role/auth/menu', { id: role.id, keys: ['auth_home', 'auth_my'] });
  await root.must('POST', '/api/auth/sys/role/auth/data', { id: role.id, customerAccess: 1, siteAccess: 0, ...NO_DATA });
  const k = await root.key();
  await root.must('POST', '/api/auth/sys/user/add', {
    userName: 'dash_alpha', keyId: k.keyId, password: await k.fresh('Dash#Alpha123'), roleId: role.id, customerId: a.id, email: 'dash_alpha@example.com',
  });
  await (await new Api(server.url).login('dash_alpha', 'Dash#Alpha123')).acceptPrivacy();
  const alpha = await signedIn('dash_alpha', 'Dash#Alpha123');
  await alpha.getByTestId('home-dashboard').waitFor();
  await waitFigure(alpha, 'home-pie-faults-fault', 1);
  await waitFigure(alpha, 'home-pie-models-model-' + model.id, 2);
  const text = await alpha.getByTestId('home-dashboard').textContent();
  assert.ok(!text.includes('DASH-B') && !text.includes('Bravo'), "customer B's devices and site are not on A's dashboard");
  await alpha.close();
});
