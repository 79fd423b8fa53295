// OCPP 2.0.1 end to end (docs/ocpp201.md): an independent 2.0.1 charging station (the npm
// ocpp-rpc client in strict mode, which checks every message both ways against the official
// 2.0.1 JSON schemas, so a schema violation by the server fails the test) boots, reports two
// EVSEs with their connectors, runs a whole transaction (TransactionEvent Started, Updated twice,
// Ended: one session with its energy in Wh and its stop reason), raises and clears a component
// problem (NotifyEvent: an alarm opened and ended), and answers the operator's commands mapped to
// 2.0.1 calls (Reset, ChangeAvailability, TriggerMessage, GetBaseReport with its NotifyReport,
// SetVariables, GetVariables, ClearCache, DataTransfer, RequestStart/StopTransaction,
// UnlockConnector). Sub-protocol negotiation: a charger offering 1.6 and 2.0.1 gets 2.0.1; one
// offering only 2.1 is refused and listed. In Chromium, en-US then zh-CN on the same server: the
// device page's EVSE table with its connectors' statuses, and the Security tab's OCPP protocol
// setting, changed to OCPP 1.6 in en-US. Screenshots go to CHARGEOPS_E2E_SHOTS when set.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { RPCClient } from 'ocpp-rpc';
import { startServer, openBrowser, Api, rootPage, chargerFixture, confirmOk, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const SN = 'E2E-V201-0001';
const DUAL_SN = 'E2E-V201-0002';
const V21_SN = 'E2E-V21-0001';
const shots = process.env.CHARGEOPS_E2E_SHOTS;

const iso = (ms = Date.now()) => new Date(ms).toISOString();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls cond every 50 ms until it answers something truthy; fails after ms naming what and detail(). */
async function until(what, cond, ms = 10_000, detail = () => '') {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${detail()}`);
    await sleep(50);
  }
}

describe('OCPP 2.0.1 charging station', () => {
  let server;
  let browser;
  let root;
  let device; // { id }
  let place; // the fixture's model and site
  let charger;
  const others = []; // the negotiation tests' clients
  const seen = []; // the server's calls, "Action detail"
  const problems = []; // schema failures either way and failed background calls
  // the station's device model (what GetVariables reads and SetVariables changes)
  const variables = new Map([['OCPPCommCtrlr/HeartbeatInterval', '60']]);
  // connector statuses by "evse/connector"
  const plugs = new Map();

  const status = async (evseId, connectorId, connectorStatus) => {
    await charger.call('StatusNotification', { timestamp: iso(), connectorStatus, evseId, connectorId });
    plugs.set(`${evseId}/${connectorId}`, connectorStatus);
  };
  /** A call the station makes after answering one of the server's (as a real station does). */
  const later = (what, fn) =>
    setTimeout(() => fn().catch((e) => problems.push(`${what}: ${e.message}`)), 20);
  const calls = () => `the station was called: ${seen.join(' | ') || 'never'}; problems: ${problems.join(' | ') || 'none'}`;
  const key = (c, v) => `${c.name}${c.evse ? `@${c.evse.id}${c.evse.connectorId !== undefined ? `.${c.evse.connectorId}` : ''}` : ''}/${v.name}`;
  const runtime = () => root.must('GET', `/api/auth/sys/dev/runtime/detail?id=${device.id}`);
  const sessions = (extra = {}) => root.must('POST', '/api/auth/sys/session/list', { deviceId: device.id, ...extra });

  /**
   * Sends control type ct with params through the API, waits for its result and asserts success
   * (result 2) and that the station's latest call starts with want.
   */
  async function command(ct, params, want) {
    const n = seen.length;
    const sent = await root.must('POST', '/api/auth/sys/dev/control/send', { deviceIds: [device.id], controlType: ct, params });
    const [c0] = sent.commands;
    assert.ok(c0.id > 0, `control type ${ct} was not sent: ${c0.code} ${c0.message}`);
    const c = await until(`control type ${ct} to finish`, async () => {
      const c = await root.must('GET', `/api/auth/sys/dev/control/detail?id=${c0.id}`);
      return c.result !== 1 && c;
    }, 10_000, calls);
    assert.equal(c.result, 2, `control type ${ct}: result ${c.result} ${c.message} (answer ${c.answer}); ${calls()}`);
    const got = seen.slice(n);
    assert.ok(got.some((s) => s.startsWith(want)), `control type ${ct}: the station got ${JSON.stringify(got)}, want "${want}"`);
    return c;
  }

  before(async () => {
    server = await startServer();
    browser = await openBrowser();
    root = await new Api(server.url).login(ROOT_NAME, ROOT_PASSWORD);
    await root.acceptPrivacy();
  });

  after(async () => {
    for (const c of [charger, ...others]) await c?.close({ force: true }).catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  test('boot and the connectors of two EVSEs', async () => {
    const made = await chargerFixture(server, root, { sn: SN, name: 'Station201', model: 'V201-AC-2x22', protocols: ['ocpp2.0.1'] });
    device = made.device;
    place = { modelId: made.model.id, siteId: made.site.id };
    charger = made.charger;
    charger.on('strictValidationFailure', ({ method, outbound, isCall, error }) =>
      problems.push(`schema: ${outbound ? 'sent' : 'received'} ${method} ${isCall ? 'call' : 'answer'}: ${error.message}`));

    // the station's side of every command (docs/ocpp201.md, "chargeops → station")
    charger.handle('Reset', ({ params }) => {
      seen.push(`Reset ${params.type}`);
      // it reboots: boots again and reports its connectors
      later('reboot', async () => {
        await charger.call('BootNotification', { reason: 'RemoteReset', chargingStation: { vendorName: 'E2E', model: 'V201-AC-2x22' } });
        for (const [k, s] of plugs) {
          const [e, c] = k.split('/').map(Number);
          await status(e, c, s);
        }
      });
      return { status: 'Accepted' };
    });
    charger.handle('ChangeAvailability', ({ params }) => {
      seen.push(`ChangeAvailability ${params.operationalStatus} ${params.evse?.id ?? '-'}`);
      return { status: 'Accepted' };
    });
    charger.handle('TriggerMessage', ({ params }) => {
      seen.push(`TriggerMessage ${params.requestedMessage} ${params.evse?.id ?? '-'}`);
      if (params.requestedMessage === 'StatusNotification' && params.evse) {
        later('triggered status', async () => {
          for (const [k, s] of plugs) {
            const [e, c] = k.split('/').map(Number);
            if (e === params.evse.id) await status(e, c, s);
          }
        });
      }
      return { status: 'Accepted' };
    });
    charger.handle('GetBaseReport', ({ params }) => {
      seen.push(`GetBaseReport ${params.reportBase}`);
      // the report in two parts (tbc): the values as Actual attributes
      later('NotifyReport', async () => {
        const part = (seqNo, tbc, reportData) => charger.call('NotifyReport', { requestId: params.requestId, generatedAt: iso(), seqNo, tbc, reportData });
        await part(0, true, [{
          component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' },
          variableAttribute: [{ type: 'Actual', value: variables.get('OCPPCommCtrlr/HeartbeatInterval'), mutability: 'ReadWrite' }],
          variableCharacteristics: { dataType: 'integer', unit: 's', supportsMonitoring: false },
        }]);
        await part(1, false, [{
          component: { name: 'Connector', evse: { id: 1, connectorId: 1 } }, variable: { name: 'ConnectorType' },
          variableAttribute: [{ type: 'Actual', value: 'cType2', mutability: 'ReadOnly' }],
        }]);
      });
      return { status: 'Accepted' };
    });
    charger.handle('SetVariables', ({ params }) => {
      seen.push(`SetVariables ${params.setVariableData.map((d) => `${key(d.component, d.variable)}=${d.attributeValue}`).join(',')}`);
      return {
        setVariableResult: params.setVariableData.map((d) => {
          const k = key(d.component, d.variable);
          const known = variables.has(k);
          if (known) variables.set(k, d.attributeValue);
          return { attributeStatus: known ? 'Accepted' : 'UnknownVariable', component: d.component, variable: d.variable };
        }),
      };
    });
    charger.handle('GetVariables', ({ params }) => {
      seen.push(`GetVariables ${params.getVariableData.map((d) => key(d.component, d.variable)).join(',')}`);
      return {
        getVariableResult: params.getVariableData.map((d) => {
          const v = variables.get(key(d.component, d.variable));
          return v === undefined
            ? { attributeStatus: 'UnknownVariable', component: d.component, variable: d.variable }
            : { attributeStatus: 'Accepted', attributeType: 'Actual', attributeValue: v, component: d.component, variable: d.variable };
        }),
      };
    });
    charger.handle('RequestStartTransaction', ({ params }) => {
      seen.push(`RequestStartTransaction ${params.evseId ?? '-'} ${params.idToken.idToken} ${params.idToken.type}`);
      later('remote start', async () => {
        await status(params.evseId, 1, 'Occupied');
        const res = await charger.call('TransactionEvent', {
          eventType: 'Started', timestamp: iso(), triggerReason: 'RemoteStart', seqNo: 0,
          transactionInfo: { transactionId: 'TX-E2E-REMOTE', chargingState: 'Charging', remoteStartId: params.remoteStartId },
          evse: { id: params.evseId, connectorId: 1 }, idToken: params.idToken,
          meterValue: [{ timestamp: iso(), sampledValue: [{ value: 11080, context: 'Transaction.Begin', measurand: 'Energy.Active.Import.Register', unitOfMeasure: { unit: 'Wh' } }] }],
        });
        if (res.idTokenInfo?.status !== 'Accepted') problems.push(`remote start: idTokenInfo ${JSON.stringify(res.idTokenInfo)}`);
      });
      return { status: 'Accepted', transactionId: 'TX-E2E-REMOTE' };
    });
    charger.handle('RequestStopTransaction', ({ params }) => {
      seen.push(`RequestStopTransaction ${params.transactionId}`);
      // stops; the EV stays plugged in (the connector stays Occupied)
      later('remote stop', () => charger.call('TransactionEvent', {
        eventType: 'Ended', timestamp: iso(), triggerReason: 'RemoteStop', seqNo: 1,
        transactionInfo: { transactionId: params.transactionId, chargingState: 'EVConnected', stoppedReason: 'Remote' },
        meterValue: [{ timestamp: iso(), sampledValue: [{ value: 11.5, context: 'Transaction.End', measurand: 'Energy.Active.Import.Register', unitOfMeasure: { unit: 'kWh' } }] }],
      }));
      return { status: 'Accepted' };
    });
    charger.handle('UnlockConnector', ({ params }) => {
      seen.push(`UnlockConnector ${params.evseId} ${params.connectorId}`);
      return { status: 'Unlocked' };
    });
    charger.handle('ClearCache', () => {
      seen.push('ClearCache');
      return { status: 'Accepted' };
    });
    charger.handle('DataTransfer', ({ params }) => {
      seen.push(`DataTransfer ${params.vendorId} ${params.messageId ?? '-'} ${params.data ?? '-'}`);
      return { status: 'Accepted' };
    });
    charger.handle(({ method }) => {
      seen.push(`unexpected ${method}`);
      throw new Error(`no handler for ${method}`);
    });

    await charger.connect();
    assert.equal(charger.protocol, 'ocpp2.0.1');
    const boot = await charger.call('BootNotification', {
      reason: 'PowerUp', chargingStation: { vendorName: 'E2E', model: 'V201-AC-2x22', serialNumber: 'S-201-1', firmwareVersion: '2.0.1-e2e' },
    });
    assert.equal(boot.status, 'Accepted');
    assert.ok(boot.interval > 0, `interval ${boot.interval}`);
    await status(1, 1, 'Available');
    await status(1, 2, 'Unavailable');
    await status(2, 1, 'Available');

    const r = await runtime();
    assert.equal(r.protocol, 'ocpp2.0.1');
    assert.equal(r.vendor, 'E2E');
    assert.deepEqual(r.connectors.map((c) => [c.connectorId, c.status, c.plugs.map((p) => `${p.connectorId}:${p.status}`)]),
      [[1, 'Available', ['1:Available', '2:Unavailable']], [2, 'Available', ['1:Available']]]);
    assert.deepEqual(problems, []);
  });

  test('a whole transaction is one session with its energy in Wh and its stop reason', async () => {
    const t0 = Date.now() - 10 * 60_000;
    const at = (min) => iso(t0 + min * 60_000);
    const energy = (value, unit, context) => ({ value, context, measurand: 'Energy.Active.Import.Register', unitOfMeasure: { unit } });
    const power = (kw) => ({ value: kw, context: 'Sample.Periodic', measurand: 'Power.Active.Import', unitOfMeasure: { unit: 'kW' } });
    const tx = (chargingState, extra = {}) => ({ transactionId: 'TX-E2E-1', ...(chargingState ? { chargingState } : {}), ...extra });

    await status(1, 1, 'Occupied');
    const started = await charger.call('TransactionEvent', {
      eventType: 'Started', timestamp: at(0), triggerReason: 'Authorized', seqNo: 0, transactionInfo: tx('Charging'),
      evse: { id: 1, connectorId: 1 }, idToken: { idToken: 'RFID-E2E-201', type: 'ISO14443' },
      meterValue: [{ timestamp: at(0), sampledValue: [energy(10000, 'Wh', 'Transaction.Begin')] }],
    });
    assert.equal(started.idTokenInfo?.status, 'Accepted', `Started answered ${JSON.stringify(started)}`);
    // 7.2 kW for 3 minutes: 360 Wh
    for (const [seqNo, kwh] of [[1, 10.36], [2, 10.72]]) {
      await charger.call('TransactionEvent', {
        eventType: 'Updated', timestamp: at(3 * seqNo), triggerReason: 'MeterValuePeriodic', seqNo, transactionInfo: tx('Charging'),
        meterValue: [{ timestamp: at(3 * seqNo), sampledValue: [energy(kwh, 'kWh', 'Sample.Periodic'), power(7.2)] }],
      });
    }
    const charging = await runtime();
    assert.equal(charging.connectors[0].status, 'Charging', 'EVSE 1 charges');
    assert.ok(charging.values.some((v) => v.connectorId === 1 && v.name === 'Power.Active.Import'), `power among ${JSON.stringify(charging.values)}`);
    const open = await sessions({ open: true });
    assert.equal(open.list.length, 1, 'one open session');

    await charger.call('TransactionEvent', {
      eventType: 'Ended', timestamp: at(9), triggerReason: 'EVCommunicationLost', seqNo: 3, transactionInfo: tx('', { stoppedReason: 'EVDisconnected' }),
      meterValue: [{ timestamp: at(9), sampledValue: [energy(11.08, 'kWh', 'Transaction.End')] }],
    });
    await status(1, 1, 'Available');

    const all = await sessions();
    assert.equal(all.list.length, 1, `one session: ${JSON.stringify(all.list)}`);
    const [s] = all.list;
    assert.deepEqual(
      { connectorId: s.connectorId, idTag: s.idTag, meterStart: s.meterStart, meterStop: s.meterStop, energyWh: s.energyWh, reason: s.reason, startedAt: s.startedAt, stoppedAt: s.stoppedAt },
      { connectorId: 1, idTag: 'RFID-E2E-201', meterStart: 10000, meterStop: 11080, energyWh: 1080, reason: 'EVDisconnected', startedAt: Date.parse(at(0)), stoppedAt: Date.parse(at(9)) },
    );
    assert.deepEqual(problems, []);
  });

  test('a component problem (NotifyEvent) opens an alarm, its clearing ends it', async () => {
    const problem = (eventId, actualValue, cleared) => charger.call('NotifyEvent', {
      generatedAt: iso(), seqNo: eventId - 1,
      eventData: [{
        eventId, timestamp: iso(), trigger: 'Delta', actualValue, cleared, techCode: 'E42', eventNotificationType: 'HardWiredNotification',
        component: { name: 'Connector', evse: { id: 2, connectorId: 1 } }, variable: { name: 'Problem' },
      }],
    });
    const alarms = async () => (await root.must('POST', '/api/auth/sys/dev/alarm/list', { deviceId: device.id, kinds: [1], page: 1, pageSize: 20 })).list
      .filter((e) => e.code === 'Connector@2.1/Problem');

    await problem(1, 'true', false);
    const [opened, ...more] = await alarms();
    assert.equal(more.length, 0);
    assert.deepEqual({ status: opened?.status, connectorId: opened?.connectorId, level: opened?.level }, { status: 0, connectorId: 2, level: 1 },
      `the open alarm: ${JSON.stringify(opened)}`);
    assert.ok((await runtime()).alarmStatus > 0, 'the device shows an alarm');

    await problem(2, 'false', true);
    const ended = await alarms();
    assert.deepEqual(ended.map((e) => [e.id, e.status]), [[opened.id, 1]], `the alarm ended: ${JSON.stringify(ended)}`);
    assert.ok(ended[0].endedAt > 0);
    assert.deepEqual(problems, []);
  });

  test("the operator's commands are 2.0.1 calls the station answers", async () => {
    // 1 soft reset: Reset OnIdle; the station reboots and reports its connectors again
    await command(1, {}, 'Reset OnIdle');
    await until('the station back after its reset', async () => {
      const r = await runtime();
      return r.connectors.every((c) => c.status === 'Available' && c.info !== 'Restarting') && r;
    }, 10_000, calls);
    // 4 EVSE availability: ChangeAvailability with the EVSE
    await command(4, { connectorId: 2, enable: true }, 'ChangeAvailability Operative 2');
    // 10 trigger: TriggerMessage for EVSE 1
    await command(10, { message: 'StatusNotification', connectorId: 1 }, 'TriggerMessage StatusNotification 1');

    // 9 without keys: GetBaseReport; the NotifyReport's values become configuration values
    await command(9, {}, 'GetBaseReport FullInventory');
    const config = async () => Object.fromEntries((await root.must('GET', `/api/auth/sys/dev/config/values?deviceId=${device.id}`)).map((c) => [c.key, c]));
    const reported = await until('the reported values', async () => {
      const c = await config();
      return c['Connector@1.1/ConnectorType'] && c;
    }, 10_000, calls);
    assert.equal(reported['OCPPCommCtrlr/HeartbeatInterval']?.value, '60');
    assert.equal(reported['OCPPCommCtrlr/HeartbeatInterval'].readonly, false);
    assert.equal(reported['Connector@1.1/ConnectorType'].value, 'cType2');
    assert.equal(reported['Connector@1.1/ConnectorType'].readonly, true);

    // 11: SetVariables, the accepted value stored; 9 with keys: GetVariables reads it back
    await command(11, { items: [{ key: 'OCPPCommCtrlr/HeartbeatInterval', value: '90' }] }, 'SetVariables OCPPCommCtrlr/HeartbeatInterval=90');
    assert.equal((await config())['OCPPCommCtrlr/HeartbeatInterval']?.value, '90');
    await command(9, { keys: ['OCPPCommCtrlr/HeartbeatInterval'] }, 'GetVariables OCPPCommCtrlr/HeartbeatInterval');
    await command(15, {}, 'ClearCache');
    await command(16, { vendorId: 'com.example', messageId: 'Ping', data: 'x' }, 'DataTransfer com.example Ping x');

    // 12 remote start: RequestStartTransaction; the station starts a transaction it names
    await command(12, { connectorId: 1, idTag: 'RFID-E2E-REMOTE' }, 'RequestStartTransaction 1 RFID-E2E-REMOTE ISO14443');
    const open = await until('the remote session', async () => (await sessions({ open: true })).list[0], 10_000, calls);
    assert.equal(open.idTag, 'RFID-E2E-REMOTE');
    assert.equal(open.connectorId, 1);
    // 13 remote stop: RequestStopTransaction with the station's own transaction id
    await command(13, { transactionId: open.id }, 'RequestStopTransaction TX-E2E-REMOTE');
    const stopped = await until('the remote session ended', async () => {
      const s = (await sessions()).list.find((x) => x.id === open.id);
      return s?.stoppedAt > 0 && s;
    }, 10_000, calls);
    assert.deepEqual([stopped.reason, stopped.meterStart, stopped.meterStop, stopped.energyWh], ['Remote', 11080, 11500, 420]);
    // 14 unlock: UnlockConnector of the EVSE's first connector
    await command(14, { connectorId: 1 }, 'UnlockConnector 1 1');

    const history = await root.must('POST', '/api/auth/sys/dev/control/list', { deviceId: device.id, page: 1, pageSize: 20 });
    assert.deepEqual(history.list.map((c) => [c.controlType, c.result]).reverse(),
      [[1, 2], [4, 2], [10, 2], [9, 2], [11, 2], [9, 2], [15, 2], [16, 2], [12, 2], [13, 2], [14, 2]]);
    assert.ok(!seen.some((s) => s.startsWith('unexpected')), calls());
    assert.deepEqual(problems, []);
  });

  test('negotiation: 1.6 and 2.0.1 offered gets 2.0.1; only 2.1 offered is refused and listed', async () => {
    await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: DUAL_SN, name: 'Station201 dual', ...place, maintenanceCycle: 90 });
    const dual = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: DUAL_SN, protocols: ['ocpp1.6', 'ocpp2.0.1'], strictMode: true, reconnect: false });
    others.push(dual);
    await dual.connect();
    assert.equal(dual.protocol, 'ocpp2.0.1');
    // it speaks 2.0.1 with the server
    const boot = await dual.call('BootNotification', { reason: 'PowerUp', chargingStation: { vendorName: 'E2E', model: 'V201-DUAL' } });
    assert.equal(boot.status, 'Accepted');
    await dual.close();

    const v21 = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: V21_SN, protocols: ['ocpp2.1'], strictMode: true, reconnect: false });
    others.push(v21);
    await assert.rejects(v21.connect(), undefined, 'an ocpp2.1-only charger is refused');
    const refusals = await root.must('POST', '/api/auth/sys/dev/refusal/list', { sn: V21_SN, page: 1, pageSize: 20 });
    assert.deepEqual(refusals.list.map((r) => [r.sn, r.reason, r.protocols]), [[V21_SN, 'unsupported_protocol', 'ocpp2.1']]);
  });

  test('the device page in en-US: the EVSE table and the OCPP protocol setting, changed to OCPP 1.6', async () => {
    const page = await rootPage(browser, server, { to: `/manage/device/detail/${device.id}` });
    const table = page.locator('[data-testid="section-runtime"] [data-testid="runtime-connectors"][data-evse="true"]');
    await table.locator('.ant-table-row').nth(1).waitFor();
    const headers = await table.locator('thead th').allInnerTexts();
    assert.equal(headers[0].trim(), 'EVSE');
    assert.ok(headers.map((h) => h.trim()).includes('Connectors'), `headers ${headers}`);
    const tags = async (row) => table.locator('.ant-table-row').nth(row).locator('[data-testid="runtime-plugs"] .ant-tag').allInnerTexts();
    // EVSE 1: its EV still plugged in after the remote stop; EVSE 2: free
    assert.deepEqual(await tags(0), ['1: Occupied', '2: Unavailable']);
    assert.deepEqual(await tags(1), ['1: Available']);
    if (shots) await page.getByTestId('section-runtime').screenshot({ path: join(shots, 'ocpp201-runtime-en-US.png') });

    await page.getByRole('tab', { name: 'Security' }).click();
    const setting = page.getByTestId('device-protocol');
    await setting.getByText('OCPP protocol').waitFor();
    assert.equal(await page.getByTestId('device-protocol-current').innerText(), 'Auto (the newest both speak)');
    await page.getByTestId('protocol-choose').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'OCPP 1.6' }).click();
    await page.getByTestId('protocol-save').click();
    await page.locator('.ant-modal-confirm-title', { hasText: `Admit ${SN} with OCPP 1.6?` }).waitFor();
    await confirmOk(page);
    await page.getByTestId('device-protocol-current').filter({ hasText: 'OCPP 1.6' }).waitFor();
    assert.equal((await root.must('GET', `/api/auth/sys/dev/basic/detail?id=${device.id}`)).protocol, 'ocpp1.6');
    if (shots) await setting.screenshot({ path: join(shots, 'ocpp201-protocol-en-US.png') });
    await page.close();

    // from the next connection: a 2.0.1-only charger is now refused; the live one stays
    const again = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: SN, protocols: ['ocpp2.0.1'], strictMode: true, reconnect: false });
    others.push(again);
    await assert.rejects(again.connect(), undefined, 'a device set to 1.6 refuses a 2.0.1-only charger');
    const refused = await root.must('POST', '/api/auth/sys/dev/refusal/list', { sn: SN, page: 1, pageSize: 20 });
    assert.deepEqual(refused.list.map((r) => [r.sn, r.reason, r.protocols]), [[SN, 'unsupported_protocol', 'ocpp2.0.1']]);
    await charger.call('Heartbeat', {});
    assert.equal((await runtime()).protocol, 'ocpp2.0.1');
  });

  test('the device page in zh-CN: EVSEs, connectors and statuses in Chinese; the protocol setting', async () => {
    // the same server and browser; the console's stored language choice, as the zh tests set it
    const page = await browser.context.newPage();
    await page.addInitScript(() => localStorage.setItem('chargeops_locale', 'zh-CN'));
    await page.goto(`${server.url}/manage/device/detail/${device.id}`);
    const table = page.locator('[data-testid="section-runtime"] [data-testid="runtime-connectors"][data-evse="true"]');
    await table.locator('.ant-table-row').nth(1).waitFor();
    await table.locator('thead th').first().filter({ hasText: '充电单元(EVSE)' }).waitFor();
    const headers = (await table.locator('thead th').allInnerTexts()).map((h) => h.trim());
    assert.equal(headers[0], '充电单元(EVSE)');
    assert.ok(headers.includes('充电枪'), `headers ${headers}`);
    const tags = async (row) => table.locator('.ant-table-row').nth(row).locator('[data-testid="runtime-plugs"] .ant-tag').allInnerTexts();
    assert.deepEqual(await tags(0), ['1: 占用中', '2: 不可用']);
    assert.deepEqual(await tags(1), ['1: 空闲']);
    if (shots) await page.getByTestId('section-runtime').screenshot({ path: join(shots, 'ocpp201-runtime-zh-CN.png') });

    await page.getByRole('tab', { name: '安全' }).click();
    const setting = page.getByTestId('device-protocol');
    await setting.getByText('OCPP 协议').waitFor();
    assert.equal(await page.getByTestId('device-protocol-current').innerText(), 'OCPP 1.6');
    await page.getByTestId('protocol-save').filter({ hasText: '修改协议' }).waitFor();
    if (shots) await setting.screenshot({ path: join(shots, 'ocpp201-protocol-zh-CN.png') });
    await page.close();
  });
});
