// Issue 13, webhooks: on an application's detail page root adds a webhook through the Webhooks
// card, sees it listed, and a command to an offline charger (result 5 at once) reaches a
// receiver started here, signed with the application's secret, and shows as delivered in the
// delivery log; a metadata address is refused with a clear message. The zh-CN console shows
// the card in Chinese. Screenshots go to $WEBHOOK_SHOTS when it is set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import { join } from 'node:path';
import { setUp, tearDown, localeFixture, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const shots = process.env.WEBHOOK_SHOTS;
const shot = async (page, name) => {
  if (shots) await page.waitForTimeout(500);
  if (shots) await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
};

/** A webhook receiver on loopback that keeps what it got. */
function startReceiver() {
  const got = [];
  const srv = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ url: req.url, headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve({ port: srv.address().port, got, close: () => srv.close() })));
}

/** The OpenAPI signature (docs/openapi.md) of a delivery, computed here from the document alone. */
function signature(secret, { method, path, query, body, appId, timestamp, nonce }) {
  const canonical = query
    .split('&')
    .filter(Boolean)
    .map((p) => p.split('=').map((s) => encodeURIComponent(decodeURIComponent(s.replace(/\+/g, ' '))).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)).join('='))
    .sort()
    .join('&');
  const text = ['CHARGEOPS-HMAC-SHA256', method, path, canonical, createHash('sha256').update(body).digest('hex'), appId, timestamp, nonce].join('\n');
  return createHmac('sha256', secret).update(text).digest('hex');
}

/** A customer, site, model and charger that never connects, for root. */
async function seedDevice(root, sn) {
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Hook Customer', code: 'HOOK' });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: 'Hook Site', code: 'H-1' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'Hook-AC', deviceType: 2 });
  return root.must('POST', '/api/auth/sys/dev/basic/add', { sn, name: sn, modelId: model.id, siteId: site.id });
}

let world;
let receiver;
before(async () => {
  world = await setUp('webhooks', ['--webhook-allow-private']);
  receiver = await startReceiver();
});

after(async () => {
  receiver?.close();
  await tearDown(world);
});

test('root adds a webhook on the detail page, an event reaches the receiver signed, the log shows it delivered', async () => {
  const { server, browser, root } = world;
  const me = await root.must('POST', '/api/unauth/info');
  const app = await root.must('POST', '/api/auth/sys/application/add', { name: 'Billing hooks', userId: me.user?.id ?? me.userId ?? me.id });
  const device = await seedDevice(root, 'HOOK-0001');

  const page = await browser.page();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD, `/manage/system/application/detail/${app.id}`);
  await page.getByTestId('webhooks-card').waitFor();
  await page.getByText('At most 5 webhooks').waitFor();

  // a metadata address is refused, even with private addresses allowed
  await page.getByTestId('webhook-add').click();
  await page.getByTestId('webhook-url').fill('http://169.254.169.254/latest/meta-data');
  await page.getByTestId('webhook-form-save').click();
  await page.getByText('Webhooks may not be sent to 169.254.169.254').waitFor();

  const url = `http://127.0.0.1:${receiver.port}/hooks/chargeops?tenant=billing`;
  await page.getByTestId('webhook-url').fill(url);
  await page.getByTestId('webhook-events').getByText('Command results').click();
  await shot(page, 'en-webhook-form');
  await page.getByTestId('webhook-form-save').click();
  const row = page.locator('[data-testid="webhook-list"] tr', { hasText: url });
  await row.waitFor();
  const rowText = await row.innerText();
  assert.ok(rowText.includes('Device status') && rowText.includes('Command results') && rowText.includes('Enabled'), rowText);

  // a command to the charger, which is offline: its result (5) is the event
  await root.must('POST', '/api/auth/sys/dev/control/send', { deviceIds: [device.id], controlType: 1 });
  const deadline = Date.now() + 15000;
  while (!receiver.got.some((g) => g.headers['x-webhook-event'] === 'command.result') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const got = receiver.got.find((g) => g.headers['x-webhook-event'] === 'command.result');
  assert.ok(got, 'no command.result delivery');
  const body = JSON.parse(got.body);
  assert.equal(body.event, 'command.result');
  assert.equal(String(body.id), got.headers['x-webhook-delivery']);
  assert.equal(body.data.sn, 'HOOK-0001');
  assert.equal(body.data.result, 5);
  assert.equal(got.headers['x-app-id'], app.appId);
  const [path, query = ''] = got.url.split('?');
  const want = signature(app.appSecret, { method: 'POST', path, query, body: got.body, appId: app.appId,
    timestamp: got.headers['x-timestamp'], nonce: got.headers['x-nonce'] });
  assert.equal(got.headers['x-signature'], want, 'the signature does not verify');

  // the delivery log
  const log = page.getByTestId('webhook-deliveries');
  await log.getByRole('button', { name: 'Refresh' }).click();
  await log.locator('tr', { hasText: 'Command results' }).filter({ hasText: 'Delivered' }).waitFor();
  assert.ok((await log.innerText()).includes('HTTP 204'));
  await shot(page, 'en-webhooks');
});

test('the zh-CN console shows the Webhooks card in Chinese', async () => {
  const w = await localeFixture('zh-CN');
  try {
    const me = await w.root.must('POST', '/api/unauth/info');
    const app = await w.root.must('POST', '/api/auth/sys/application/add', { name: '计费系统', userId: me.user?.id ?? me.userId ?? me.id });
    const page = await w.browser.page();
    await signIn(page, w.server.url, ROOT_NAME, ROOT_PASSWORD, `/manage/system/application/detail/${app.id}`);
    await page.getByTestId('webhooks-card').waitFor();
    await page.getByText('Webhook 订阅').waitFor();
    await page.getByTestId('webhook-add').click();
    await page.getByText('告警与故障').waitFor();
    await page.getByTestId('webhook-url').fill('https://203.0.113.7/hooks');
    await page.getByTestId('webhook-form-save').click();
    await page.locator('[data-testid="webhook-list"] tr', { hasText: 'https://203.0.113.7/hooks' }).filter({ hasText: '设备状态' }).waitFor();
    await page.getByText('Webhook 投递记录').waitFor();
    await shot(page, 'zh-webhooks');
    // a loopback address without the operator's permission: refused, in Chinese
    await page.getByTestId('webhook-add').click();
    await page.getByTestId('webhook-url').fill('http://127.0.0.1:9/hook');
    await page.getByTestId('webhook-form-save').click();
    await page.getByText('不允许向 127.0.0.1 发送 Webhook').waitFor();
    await shot(page, 'zh-refused');
  } finally {
    await w.browser.close();
    await w.server.stop();
  }
});
