// Issue 13, OpenAPI v1 (docs/openapi.md): the guide's own examples, run against a real node.
// docs/openapi/client.mjs (plain Node, written from the guide) lists the devices and reboots a
// charger (ocpp-rpc, strict mode) through signed requests; docs/openapi/curl-example.sh lists
// them with curl and openssl. A replay of a request and a wrong secret are refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { RPCClient } from 'ocpp-rpc';
import { startServer, Api, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';
import { signHeaders } from '../../docs/openapi/client.mjs';

const run = promisify(execFile);
const docs = (name) => fileURLToPath(new URL(`../../docs/openapi/${name}`, import.meta.url));
const SN = 'API-CP-0001';

let server;
let root;
let charger;
let app;
const resets = [];

before(async () => {
  server = await startServer();
  root = await new Api(server.url).login(ROOT_NAME, ROOT_PASSWORD);
  await root.acceptPrivacy();
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Api Co', code: 'APIC' });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: 'Api Yard', code: 'API-S' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'API-AC-22', deviceType: 2 });
  await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: SN, name: 'Api Bay 1', modelId: model.id, siteId: site.id });
  // an operator holding the device keys, and an application bound to it
  const operator = await root.createUser('api_operator', 'Operator#Pass123', ['auth_device_list', 'auth_device_detail', 'auth_device_edit']);
  const { roleId } = await root.must('GET', `/api/auth/sys/user/detail?id=${operator.id}`);
  await root.must('POST', '/api/auth/sys/role/auth/data', { id: roleId, customerAccess: 0, siteAccess: 0 });
  app = await root.must('POST', '/api/auth/sys/application/add', { name: 'Billing', userId: operator.id });

  charger = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: SN, protocols: ['ocpp1.6'], strictMode: true, reconnect: false });
  charger.handle('Reset', ({ params }) => {
    resets.push(params.type);
    return { status: 'Accepted' };
  });
  await charger.connect();
  await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'API-AC-22', firmwareVersion: '1.0.0' });
});

after(async () => {
  await charger?.close({ force: true }).catch(() => undefined);
  await server?.stop();
});

test("the guide's Node client lists the devices and reboots the charger", async () => {
  const { stdout } = await run('node', [docs('client.mjs'), server.url, app.appId, app.appSecret, SN], { timeout: 60000 });
  assert.match(stdout, new RegExp(`device \\d+ ${SN}`));
  assert.match(stdout, /command \d+ result 2 \(success\)/);
  assert.deepEqual(resets, ['Soft']);
});

test("the guide's curl example lists the devices", async () => {
  const { stdout } = await run('sh', [docs('curl-example.sh'), server.url, app.appId, app.appSecret], { timeout: 30000 });
  const answer = JSON.parse(stdout);
  assert.equal(answer.code, 0, answer.message);
  assert.deepEqual(answer.data.list.map((d) => d.sn), [SN]);
});

test('a replayed request and a wrong secret are refused with their codes', async () => {
  const url = `${server.url}/openapi/v1/devices?pageSize=20`;
  const headers = signHeaders({ method: 'GET', url, appId: app.appId, secret: app.appSecret });
  const first = await fetch(url, { headers });
  assert.equal((await first.json()).code, 0);
  const again = await fetch(url, { headers });
  assert.equal(again.status, 401);
  assert.equal((await again.json()).code, 40005);
  const wrong = await fetch(url, { headers: signHeaders({ method: 'GET', url, appId: app.appId, secret: 'not-it' }) });
  assert.equal(wrong.status, 401);
  assert.equal((await wrong.json()).code, 40006);
});
