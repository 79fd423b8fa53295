// Issue 22, OCPP 1.6 on the wire (docs/ocpp16.md): an ocpp-rpc charger in strict mode sends
// schema-valid but odd payloads (empty strings), payloads that break the schema, and frames that
// are not OCPP-J at all (sendRaw), against a real bin/chargeops (no browser). Build it with
// `go build -tags noui -o bin/chargeops ./cmd/chargeops`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { RPCClient } from 'ocpp-rpc';
import { startServer, Api, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const SN = 'WIRE-CP-0001';

let server;
let root;
let charger;
let deviceId;
const inbound = []; // frames the gateway sent, parsed (or the raw text)
const listeners = new Set();

before(async () => {
  server = await startServer();
  root = await new Api(server.url).login(ROOT_NAME, ROOT_PASSWORD);
  await root.acceptPrivacy();
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: 'Wire Co', code: 'WIRE' });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: 'Wire Yard', code: 'WIRE-S' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: 'WIRE-AC-22', deviceType: 2 });
  ({ id: deviceId } = await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: SN, name: 'Wire Bay 1', modelId: model.id, siteId: site.id }));

  charger = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: SN, protocols: ['ocpp1.6'], strictMode: true, reconnect: false });
  charger.on('message', ({ message, outbound }) => {
    if (outbound) return;
    let frame;
    try {
      frame = JSON.parse(message);
    } catch {
      frame = message;
    }
    inbound.push(frame);
    for (const l of listeners) l(frame);
  });
  // Answers to frames sent with sendRaw reach ocpp-rpc as answers to calls it never made.
  charger.on('badMessage', () => undefined);
  await charger.connect();
  await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'WIRE-AC-22', firmwareVersion: '1.0.0' });
});

after(async () => {
  await charger?.close({ force: true }).catch(() => undefined);
  await server?.stop();
});

/** The first frame from the gateway (already received or arriving within ms) that matches. */
function frameWhere(match, ms = 5000) {
  const seen = inbound.find(match);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve, reject) => {
    const l = (f) => {
      if (!match(f)) return;
      clearTimeout(timer);
      listeners.delete(l);
      resolve(f);
    };
    const timer = setTimeout(() => {
      listeners.delete(l);
      reject(new Error('no answer from the gateway'));
    }, ms);
    listeners.add(l);
  });
}

/** Sends text as it is and waits for the gateway's answer with message id id. */
async function sendRawFor(text, id) {
  charger.sendRaw(text);
  return frameWhere((f) => Array.isArray(f) && f[1] === id);
}

let seq = 0;
/** Sends a CALL whose payload strict mode would refuse to send, and returns the answer. */
async function callRaw(action, payload) {
  const id = `wire-${++seq}`;
  return sendRawFor(JSON.stringify([2, id, action, payload]), id);
}

async function unreadableCount() {
  const r = await fetch(`${server.url}/metrics`);
  assert.equal(r.status, 200);
  const m = (await r.text()).match(/^chargeops_ocpp_unreadable_frames_total (\d+)/m);
  assert.ok(m, 'the unreadable-frame counter is exposed on /metrics');
  return Number(m[1]);
}

const now = () => new Date().toISOString();

test('empty strings the schema allows are accepted and stored (idTag, sampled value)', async () => {
  const auth = await charger.call('Authorize', { idTag: '' });
  assert.ok(auth.idTagInfo?.status, 'Authorize with an empty idTag is answered');

  const start = await charger.call('StartTransaction', { connectorId: 1, idTag: '', meterStart: 100, timestamp: now() });
  assert.ok(start.transactionId > 0, 'StartTransaction with an empty idTag is stored');

  const at = new Date(Date.now() - 1000).toISOString();
  await charger.call('MeterValues', {
    connectorId: 1,
    transactionId: start.transactionId,
    meterValue: [{ timestamp: at, sampledValue: [
      { value: '', measurand: 'Voltage', unit: 'V' },
      { value: '15.5', measurand: 'Current.Import', unit: 'A' },
    ] }],
  });
  const rt = await root.must('GET', `/api/auth/sys/dev/runtime/detail?id=${deviceId}`);
  const value = (name) => rt.values.find((v) => v.name === name && v.connectorId === 1);
  assert.equal(value('Voltage')?.value, '', 'the empty sample is kept as a runtime value');
  assert.equal(value('Current.Import')?.value, '15.5', 'the other samples of the message are stored');
  const series = await root.must('POST', '/api/auth/sys/dev/data/series', {
    deviceId, names: ['Current.Import', 'Voltage'], connectorId: 1, startTime: Date.now() - 3600_000, endTime: Date.now() + 60_000, step: 5,
  });
  const points = Object.fromEntries(series.map((s) => [s.name, s.points.length]));
  assert.deepEqual(points, { 'Current.Import': 1, Voltage: 0 }, 'an empty value is no series point');

  const stop = await charger.call('StopTransaction', { idTag: '', meterStop: 200, timestamp: now(), transactionId: start.transactionId });
  assert.ok(stop, 'StopTransaction with an empty idTag is answered');
});

test('schema violations get the OCPP-J 1.6 CALLERROR codes', async (t) => {
  const ts = now();
  const cases = [
    ['a missing required string', 'StatusNotification', { connectorId: 1, status: 'Available' }, 'OccurenceConstraintViolation'],
    ['a missing required integer', 'StartTransaction', { idTag: 'T1', meterStart: 0, timestamp: ts }, 'OccurenceConstraintViolation'],
    ['a missing nested field', 'MeterValues', { connectorId: 1, meterValue: [{ sampledValue: [{ value: '1' }] }] }, 'OccurenceConstraintViolation'],
    ['a string where an integer belongs', 'StatusNotification', { connectorId: '1', errorCode: 'NoError', status: 'Available' }, 'TypeConstraintViolation'],
    ['a number where a string belongs', 'MeterValues', { connectorId: 1, meterValue: [{ timestamp: ts, sampledValue: [{ value: 230 }] }] }, 'TypeConstraintViolation'],
    ['a fraction where an integer belongs', 'StartTransaction', { connectorId: 1.5, idTag: 'T1', meterStart: 0, timestamp: ts }, 'TypeConstraintViolation'],
    ['null for a required field', 'Authorize', { idTag: null }, 'TypeConstraintViolation'],
    ['null for a required integer', 'StatusNotification', { connectorId: null, errorCode: 'NoError', status: 'Available' }, 'TypeConstraintViolation'],
    ['an object where an array belongs', 'MeterValues', { connectorId: 1, meterValue: {} }, 'TypeConstraintViolation'],
    ['a string over its maxLength', 'Authorize', { idTag: 'X'.repeat(21) }, 'PropertyConstraintViolation'],
    ['a value outside its enum', 'StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Sleeping' }, 'PropertyConstraintViolation'],
    ['an empty enum value', 'StatusNotification', { connectorId: 1, errorCode: '', status: 'Available' }, 'PropertyConstraintViolation'],
    ['a value outside its range', 'StatusNotification', { connectorId: -1, errorCode: 'NoError', status: 'Available' }, 'PropertyConstraintViolation'],
    ['a timestamp that is not a date', 'StartTransaction', { connectorId: 1, idTag: 'T1', meterStart: 0, timestamp: 'yesterday' }, 'PropertyConstraintViolation'],
    ['a payload that is an array', 'Heartbeat', [], 'FormationViolation'],
    ['a payload that is a string', 'StatusNotification', 'Available', 'FormationViolation'],
  ];
  for (const [name, action, payload, code] of cases) {
    await t.test(name, async () => {
      const answer = await callRaw(action, payload);
      assert.equal(answer[0], 4, `a CALLERROR, got ${JSON.stringify(answer)}`);
      assert.equal(answer[2], code, `${answer[3]}`);
    });
  }
  await t.test('null for an optional field is read as absent', async () => {
    const answer = await callRaw('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available', timestamp: null, info: null });
    assert.deepEqual(answer.slice(0, 1), [3], JSON.stringify(answer));
  });
});

test('unreadable frames are answered where an id can be read, counted and logged once', async (t) => {
  const before = await unreadableCount();
  const longId = 'L'.repeat(100);
  const answered = [
    ['JSON cut off after the id', '[2,"cut-1","Heartbeat",{', 'cut-1'],
    ['an unknown message type', '[7,"type-1","Heartbeat",{}]', 'type-1'],
    ['a message type given as a string', '["2","type-2","Heartbeat",{}]', 'type-2'],
    ['a CALL without an action', '[2,"noaction-1"]', 'noaction-1'],
    ['a CALL whose action is not a string', '[2,"noaction-2",5,{}]', 'noaction-2'],
    ['a numeric message id (answered as its string form)', '[2,12345,"Heartbeat",{}]', '12345'],
    ['a message id over 36 characters (answered cut to 36)', `[2,"${longId}","Heartbeat",{}]`, longId.slice(0, 36)],
  ];
  for (const [name, text, id] of answered) {
    await t.test(name, async () => {
      const answer = await sendRawFor(text, id);
      assert.equal(answer[0], 4);
      assert.equal(answer[2], 'FormationViolation');
      assert.equal(answer.length, 5);
    });
  }
  const silent = ['not json at all', '{"hello":"world"}', '[3,"no-such-call"]', '[2]'];
  for (const text of silent) charger.sendRaw(text);
  await t.test('frames without an id are counted, and the socket goes on', async () => {
    // The Heartbeat's answer comes after the gateway has handled every frame sent before it.
    const hb = await charger.call('Heartbeat', {});
    assert.ok(hb.currentTime);
    assert.equal(await unreadableCount(), before + answered.length + silent.length);
    assert.ok(!inbound.some((f) => Array.isArray(f) && f[1] === 'no-such-call'), 'a CALLRESULT is never answered');
  });
  await t.test('one log line for the burst', async () => {
    const lines = server.output().split('\n').filter((l) => l.includes('ocpp frame unreadable'));
    assert.equal(lines.length, 1, server.output());
  });
});
