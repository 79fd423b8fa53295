// Issue 25 end to end (docs/smart-charging.md): smart charging against independent chargers in
// strict mode (the npm ocpp-rpc client checks every frame both ways against the official OCPP
// 1.6 and 2.0.1 JSON schemas, so a SetChargingProfile, ClearChargingProfile or
// GetCompositeSchedule the server sends out of schema fails the test), and the site load
// manager sharing a site's limit among its sessions. A 1.6 charger: an operator's absolute
// TxDefault profile arrives with exactly its fields and is listed installed, a ChargePointMax
// profile on connector 0, a profile the charger refuses is listed refused with its message, a
// clear by id removes a profile, a clear nothing matches is the charger's Unknown, the composite
// schedule's answer is kept on its command, and a profile in W is refused by the server (the
// charger said it takes Current only) before anything is sent. Then the site's limit: a session
// starts and gets its Tx profile (limit at most 11 kW / 690 V) and the charger its fallback
// TxDefault. A 2.0.1 station: the same three calls in 2.0.1 words. In Chromium, en-US then
// zh-CN: the site's Power tab (limit, allocation, chart; the limit changed in the form reaches
// the charger as a new Tx profile) and the device's Smart charging tab (the profiles, one set
// and cleared through the dialogs, the composite schedule drawn). Screenshots go to
// CHARGEOPS_E2E_SHOTS when set.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer, openBrowser, Api, rootPage, chargerFixture, confirmOk, never, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const SN16 = 'E2E-SC16-0001';
const SN201 = 'E2E-SC201-0001';
const TAG = 'SC-CARD-0001';
const REFUSED_ID = 666; // the profile id the 1.6 charger refuses
const shots = process.env.CHARGEOPS_E2E_SHOTS;

const iso = (ms = Date.now()) => new Date(ms).toISOString();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// the 1.6 charger's ChargingScheduleAllowedChargingRateUnit and friends (GetConfiguration)
const CONFIG16 = { ChargingScheduleAllowedChargingRateUnit: 'Current', ChargeProfileMaxStackLevel: '10', MaxChargingProfilesInstalled: '10' };
// A per phase of a three-phase kW limit, rounded down to 0.1 A as the planner does
const perPhase = (kw) => Math.floor((kw * 1000) / (230 * 3) * 10) / 10;

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

/**
 * How many strongly coloured pixels a chart's canvas has below its legend (40 px): what its series
 * draw (the axes, grid lines and labels are grey). Polled until some show (drawing may animate).
 */
async function drawnPixels(chart, ms = 5000) {
  const count = () => chart.locator('canvas').first().evaluate((c) => {
    const top = Math.round(40 * (c.width / c.clientWidth));
    const { data } = c.getContext('2d').getImageData(0, top, c.width, c.height - top);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] > 128 && Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 60) n++;
    }
    return n;
  });
  const deadline = Date.now() + ms;
  for (;;) {
    const n = await count();
    if (n > 0 || Date.now() > deadline) return n;
    await sleep(200);
  }
}

describe('smart charging and site load management (issue 25)', () => {
  let server;
  let browser;
  let root;
  let startedAt;
  const problems = []; // schema failures either way, failed background calls
  // the 1.6 charger
  let c16; // { device, site, charger }
  const got16 = []; // { action, params, at }
  const held16 = new Set(); // profile ids the charger holds
  let tx16 = 0; // its session's id
  let newLimit = 0; // its Tx profile's limit after the site's limit was lowered in the console
  // the 2.0.1 station
  let c201;
  const got201 = [];

  const watchSchema = (charger, who) =>
    charger.on('strictValidationFailure', ({ method, outbound, isCall, error }) =>
      problems.push(`${who} schema: ${outbound ? 'sent' : 'received'} ${method} ${isCall ? 'call' : 'answer'}: ${error.message}`));
  const said = (list) => () => `the charger got: ${list.map((g) => `${g.action} ${JSON.stringify(g.params)}`).join(' | ') || 'nothing'}; problems: ${problems.join(' | ') || 'none'}`;
  const profiles = async (deviceId) => root.must('GET', `/api/auth/sys/dev/profile/list?deviceId=${deviceId}`);
  const sitePower = async (siteId) => root.must('GET', `/api/auth/sys/site/power?siteId=${siteId}`);

  /**
   * Sends control type ct with params to a device through the API and waits for its result;
   * asserts it is want (2 success, 3 failed: the charger answered, refusing) and returns the
   * command and the calls the charger got meanwhile.
   */
  async function command(dev, list, ct, params, want = 2) {
    const n = list.length;
    const sent = await root.must('POST', '/api/auth/sys/dev/control/send', { deviceIds: [dev.id], controlType: ct, params });
    const [c0] = sent.commands;
    assert.ok(c0.id > 0, `control type ${ct} was not sent: ${c0.code} ${c0.message}`);
    const c = await until(`control type ${ct} to finish`, async () => {
      const c = await root.must('GET', `/api/auth/sys/dev/control/detail?id=${c0.id}`);
      return c.result !== 1 && c;
    }, 10_000, said(list));
    assert.equal(c.result, want, `control type ${ct}: result ${c.result} ${c.message} (answer ${c.answer}); ${said(list)()}`);
    return { cmd: c, calls: list.slice(n) };
  }

  before(async () => {
    server = await startServer();
    startedAt = Date.now();
    browser = await openBrowser();
    root = await new Api(server.url).login(ROOT_NAME, ROOT_PASSWORD);
    await root.acceptPrivacy();
  });

  after(async () => {
    for (const c of [c16?.charger, c201?.charger]) await c?.close({ force: true }).catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  test('OCPP 1.6 strict charger: profiles set, refused, cleared, the composite schedule; a unit it does not take is refused', async () => {
    c16 = await chargerFixture(server, root, { sn: SN16, name: 'Smart16', model: 'SC16-AC-22' });
    const { charger } = c16;
    watchSchema(charger, '1.6');
    const rec = (action) => ({ params }) => {
      got16.push({ action, params, at: Date.now() });
    };

    charger.handle('GetConfiguration', ({ params }) => {
      rec('GetConfiguration')({ params });
      const keys = params.key?.length ? params.key : Object.keys(CONFIG16);
      return {
        configurationKey: keys.filter((k) => k in CONFIG16).map((k) => ({ key: k, readonly: true, value: CONFIG16[k] })),
        unknownKey: keys.filter((k) => !(k in CONFIG16)),
      };
    });
    charger.handle('SetChargingProfile', ({ params }) => {
      rec('SetChargingProfile')({ params });
      const id = params.csChargingProfiles.chargingProfileId;
      if (id === REFUSED_ID) return { status: 'Rejected' };
      held16.add(id);
      return { status: 'Accepted' };
    });
    charger.handle('ClearChargingProfile', ({ params }) => {
      rec('ClearChargingProfile')({ params });
      if (params.id !== undefined) return { status: held16.delete(params.id) ? 'Accepted' : 'Unknown' };
      return { status: 'Unknown' }; // the criteria clears of this test match nothing the charger holds
    });
    charger.handle('GetCompositeSchedule', ({ params }) => {
      rec('GetCompositeSchedule')({ params });
      return {
        status: 'Accepted', connectorId: params.connectorId, scheduleStart: iso(Math.trunc(Date.now() / 1000) * 1000),
        chargingSchedule: {
          duration: params.duration, chargingRateUnit: params.chargingRateUnit ?? 'A',
          chargingSchedulePeriod: [{ startPeriod: 0, limit: 15.9 }, { startPeriod: 1800, limit: 10, numberPhases: 3 }],
        },
      };
    });
    charger.handle(({ method, params }) => {
      got16.push({ action: `unexpected ${method}`, params, at: Date.now() });
      throw new Error(`no handler for ${method}`);
    });

    await charger.connect();
    assert.equal(charger.protocol, 'ocpp1.6');
    assert.equal((await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'SC16-AC-22' })).status, 'Accepted');
    for (const c of [0, 1]) await charger.call('StatusNotification', { connectorId: c, errorCode: 'NoError', status: 'Available', timestamp: iso() });
    const dev = c16.device;

    // the charger's smart-charging keys, read the usual way (control type 9)
    const { calls: read } = await command(dev, got16, 9, { keys: Object.keys(CONFIG16) });
    assert.deepEqual(read.map((g) => [g.action, g.params.key]), [['GetConfiguration', Object.keys(CONFIG16)]]);

    // an absolute TxDefault profile in A with two periods: exactly its fields on the wire
    const start = Math.trunc(Date.now() / 1000) * 1000;
    const txDefault = {
      id: 101, stackLevel: 2, purpose: 'TxDefault', kind: 'Absolute',
      schedule: { start, duration: 3600, unit: 'A', periods: [{ start: 0, limit: 16 }, { start: 1800, limit: 10, phases: 3 }] },
    };
    const { calls: set1 } = await command(dev, got16, 26, { connectorId: 1, profile: txDefault });
    assert.equal(set1.length, 1, said(got16)());
    const wire = structuredClone(set1[0].params);
    assert.equal(Date.parse(wire.csChargingProfiles.chargingSchedule.startSchedule), start, `startSchedule ${wire.csChargingProfiles.chargingSchedule.startSchedule}`);
    delete wire.csChargingProfiles.chargingSchedule.startSchedule;
    assert.deepEqual(wire, {
      connectorId: 1,
      csChargingProfiles: {
        chargingProfileId: 101, stackLevel: 2, chargingProfilePurpose: 'TxDefaultProfile', chargingProfileKind: 'Absolute',
        chargingSchedule: {
          duration: 3600, chargingRateUnit: 'A',
          chargingSchedulePeriod: [{ startPeriod: 0, limit: 16 }, { startPeriod: 1800, limit: 10, numberPhases: 3 }],
        },
      },
    });

    // a charger maximum on connector 0
    const stationMax = { id: 102, stackLevel: 1, purpose: 'ChargePointMax', kind: 'Relative', schedule: { unit: 'A', periods: [{ start: 0, limit: 32 }] } };
    const { calls: set2 } = await command(dev, got16, 26, { connectorId: 0, profile: stationMax });
    assert.deepEqual(set2.map((g) => [g.params.connectorId, g.params.csChargingProfiles.chargingProfilePurpose, g.params.csChargingProfiles.chargingProfileKind]),
      [[0, 'ChargePointMaxProfile', 'Relative']]);
    assert.equal(set2[0].params.csChargingProfiles.chargingSchedule.startSchedule, undefined, 'a relative profile has no start');

    // one the charger refuses: the command fails, the profile is listed refused with why
    const refused = { id: REFUSED_ID, stackLevel: 3, purpose: 'TxDefault', kind: 'Relative', schedule: { unit: 'A', periods: [{ start: 0, limit: 8 }] } };
    const { cmd: rc } = await command(dev, got16, 26, { connectorId: 1, profile: refused }, 3);
    assert.match(rc.message, /sc_rejected|refused/i, `the refusal's message: ${rc.message}`);

    let list = await profiles(dev.id);
    const byId = (l) => Object.fromEntries(l.map((p) => [p.profile.id, p]));
    assert.deepEqual(list.map((p) => [p.connectorId, p.profile.id, p.profile.purpose, p.state, p.source]).sort((a, b) => a[1] - b[1]),
      [[1, 101, 'TxDefault', 1, 'operator'], [0, 102, 'ChargePointMax', 1, 'operator'], [1, REFUSED_ID, 'TxDefault', 2, 'operator']]);
    assert.deepEqual(byId(list)[101].profile, txDefault, 'the stored profile is the one sent');
    assert.equal(byId(list)[101].createdBy, ROOT_NAME);
    assert.equal(byId(list)[REFUSED_ID].message, 'The charger refused the charging profile');
    assert.equal(byId(list)[101].message, '');

    // clear by id: the charger's Accepted removes it from the list
    const { calls: clr } = await command(dev, got16, 27, { clear: { id: 102 } });
    assert.deepEqual(clr.map((g) => [g.action, g.params]), [['ClearChargingProfile', { id: 102 }]]);
    list = await profiles(dev.id);
    assert.deepEqual(list.map((p) => p.profile.id).sort((a, b) => a - b), [101, REFUSED_ID]);
    // a clear nothing matches: the charger's Unknown, in 1.6 words on the wire; nothing else is removed
    const { cmd: unk, calls: clr2 } = await command(dev, got16, 27, { clear: { connectorId: 1, purpose: 'Tx', stackLevel: 7 } }, 3);
    assert.deepEqual(clr2.map((g) => g.params), [{ connectorId: 1, chargingProfilePurpose: 'TxProfile', stackLevel: 7 }]);
    assert.match(unk.message, /sc_clear_unknown|no matching/i, unk.message);
    assert.equal((await profiles(dev.id)).length, 2);

    // the composite schedule: the charger's answer comes back on the command, in chargeops' terms
    const { cmd: comp, calls: gc } = await command(dev, got16, 28, { connectorId: 1, duration: 3600, rateUnit: 'A' });
    assert.deepEqual(gc.map((g) => g.params), [{ connectorId: 1, duration: 3600, chargingRateUnit: 'A' }]);
    const answer = typeof comp.answer === 'string' ? JSON.parse(comp.answer) : comp.answer;
    assert.ok(Math.abs(answer.start - Date.now()) < 10_000, `start ${answer.start}`);
    assert.deepEqual({ ...answer, start: 0 }, {
      connectorId: 1, start: 0, duration: 3600, unit: 'A', periods: [{ start: 0, limit: 15.9 }, { start: 1800, limit: 10, phases: 3 }],
    });

    // a profile in W: the charger takes Current only, the server refuses it before sending
    const n = got16.length;
    const inW = { id: 103, stackLevel: 1, purpose: 'TxDefault', kind: 'Relative', schedule: { unit: 'W', periods: [{ start: 0, limit: 7400 }] } };
    const w = await root.call('POST', '/api/auth/sys/dev/control/send', { deviceIds: [dev.id], controlType: 26, params: { connectorId: 1, profile: inW } });
    assert.equal(w.code, 10001, `a profile in W: ${JSON.stringify(w)}`);
    // the field is named by its label (the console puts the refusal on its form field by it)
    assert.match(w.message, /^Unit: .*only in A/, `the refusal names the unit: ${JSON.stringify(w)}`);
    await never(() => got16.length > n, 500, `the charger got ${JSON.stringify(got16.slice(n))}`);
    assert.equal((await profiles(dev.id)).length, 2, 'nothing stored for the refused W profile');

    assert.ok(!got16.some((g) => g.action.startsWith('unexpected')), said(got16)());
    assert.deepEqual(problems, []);
  });

  test('OCPP 1.6 load management: a session gets its Tx profile within the site limit, the charger its fallback', async () => {
    const { charger, device: dev, site, customer } = c16;
    await root.must('POST', '/api/auth/sys/token/add', { customerId: customer.id, idTag: TAG, name: 'Smart charging card' });
    await root.must('POST', '/api/auth/sys/site/power', { siteId: site.id, enabled: true, limitKw: 11, limitA: 0, minA: 6, editLevel: 1, schedule: [] });
    const n = got16.length;

    assert.equal((await charger.call('Authorize', { idTag: TAG })).idTagInfo.status, 'Accepted');
    await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Preparing', timestamp: iso() });
    const started = Date.now();
    const tx = await charger.call('StartTransaction', { connectorId: 1, idTag: TAG, meterStart: 1000, timestamp: iso() });
    assert.equal(tx.idTagInfo.status, 'Accepted');
    tx16 = tx.transactionId;
    await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Charging', timestamp: iso() });

    const profilesGot = () => got16.slice(n).filter((g) => g.action === 'SetChargingProfile');
    const txProfile = await until('the Tx profile', () => profilesGot().find((g) => g.params.csChargingProfiles.chargingProfilePurpose === 'TxProfile'), 5000, said(got16));
    assert.ok(txProfile.at - started < 5000, `the Tx profile came after ${txProfile.at - started} ms`);
    const fallback = await until('the fallback TxDefault', () => profilesGot().find((g) => g.params.csChargingProfiles.chargingProfileId === 900100), 5000, said(got16));

    const tp = txProfile.params;
    const limit = perPhase(11); // 15.9 A
    assert.equal(tp.connectorId, 1);
    assert.deepEqual(
      { id: tp.csChargingProfiles.chargingProfileId, tx: tp.csChargingProfiles.transactionId, kind: tp.csChargingProfiles.chargingProfileKind, unit: tp.csChargingProfiles.chargingSchedule.chargingRateUnit },
      { id: 900001, tx: tx16, kind: 'Relative', unit: 'A' },
    );
    const [p0] = tp.csChargingProfiles.chargingSchedule.chargingSchedulePeriod;
    assert.ok(p0.limit <= 11000 / (230 * 3) && p0.limit >= limit - 0.1, `the Tx profile's limit ${p0.limit} A, want ≤ 15.94`);
    assert.ok(Date.parse(tp.csChargingProfiles.validTo) > Date.now(), `validTo ${tp.csChargingProfiles.validTo}`);
    const fp = fallback.params;
    assert.deepEqual(
      [fp.connectorId, fp.csChargingProfiles.chargingProfilePurpose, fp.csChargingProfiles.chargingProfileKind, fp.csChargingProfiles.stackLevel],
      [0, 'TxDefaultProfile', 'Relative', 0],
    );
    assert.ok(fp.csChargingProfiles.chargingSchedule.chargingSchedulePeriod[0].limit <= limit, `the fallback's limit ${JSON.stringify(fp)}`);

    // the site's view: the allocation applied
    const view = await until('the allocation applied', async () => {
      const v = await sitePower(site.id);
      return v.chargers.some((c) => c.transactionId === tx16 && c.state === 1) && v;
    }, 5000, said(got16));
    const row = view.chargers.find((c) => c.transactionId === tx16);
    assert.deepEqual([row.deviceId, row.sn, row.connectorId, row.limitA], [dev.id, SN16, 1, p0.limit]);
    assert.ok(Math.abs(row.limitW - p0.limit * 690) < 1, `limitW ${row.limitW}`);
    assert.ok(Math.abs(view.limitW - 11000) < 1, `the site's limit now ${view.limitW}`);
    assert.equal(view.power.limitKw, 11);
    // both load-manager profiles are listed, installed, as the load manager's
    const list = await profiles(dev.id);
    for (const id of [900001, 900100]) {
      const p = list.find((x) => x.profile.id === id);
      assert.deepEqual([p?.state, p?.source], [1, 'load'], `profile ${id}: ${JSON.stringify(p)}`);
    }
    assert.ok(!got16.some((g) => g.action.startsWith('unexpected')), said(got16)());
    assert.deepEqual(problems, []);
  });

  test('OCPP 2.0.1 strict station: SetChargingProfile, ClearChargingProfile and GetCompositeSchedule in 2.0.1 words', async () => {
    c201 = await chargerFixture(server, root, { sn: SN201, name: 'Smart201', model: 'SC201-AC-22', protocols: ['ocpp2.0.1'] });
    const { charger, device: dev } = c201;
    watchSchema(charger, '2.0.1');
    const held = new Map(); // id -> { evseId, purpose }
    charger.handle('SetChargingProfile', ({ params }) => {
      got201.push({ action: 'SetChargingProfile', params });
      held.set(params.chargingProfile.id, { evseId: params.evseId, purpose: params.chargingProfile.chargingProfilePurpose });
      return { status: 'Accepted' };
    });
    charger.handle('ClearChargingProfile', ({ params }) => {
      got201.push({ action: 'ClearChargingProfile', params });
      if (params.chargingProfileId !== undefined) return { status: held.delete(params.chargingProfileId) ? 'Accepted' : 'Unknown' };
      const c = params.chargingProfileCriteria ?? {};
      const hit = [...held].filter(([, p]) => (c.evseId === undefined || c.evseId === p.evseId) && (!c.chargingProfilePurpose || c.chargingProfilePurpose === p.purpose));
      for (const [id] of hit) held.delete(id);
      return { status: hit.length ? 'Accepted' : 'Unknown' };
    });
    charger.handle('GetCompositeSchedule', ({ params }) => {
      got201.push({ action: 'GetCompositeSchedule', params });
      return {
        status: 'Accepted',
        schedule: {
          evseId: params.evseId, duration: params.duration, scheduleStart: iso(Math.trunc(Date.now() / 1000) * 1000), chargingRateUnit: params.chargingRateUnit,
          chargingSchedulePeriod: [{ startPeriod: 0, limit: 20 }, { startPeriod: 600, limit: 12, numberPhases: 1 }],
        },
      };
    });
    charger.handle(({ method, params }) => {
      got201.push({ action: `unexpected ${method}`, params });
      throw new Error(`no handler for ${method}`);
    });
    await charger.connect();
    assert.equal(charger.protocol, 'ocpp2.0.1');
    const boot = await charger.call('BootNotification', { reason: 'PowerUp', chargingStation: { vendorName: 'E2E', model: 'SC201-AC-22' } });
    assert.equal(boot.status, 'Accepted');
    await charger.call('StatusNotification', { timestamp: iso(), connectorStatus: 'Available', evseId: 1, connectorId: 1 });

    // ChargePointMax on the station (EVSE 0): ChargingStationMaxProfile
    const stationMax = { id: 201, stackLevel: 1, purpose: 'ChargePointMax', kind: 'Relative', schedule: { unit: 'W', periods: [{ start: 0, limit: 22000 }] } };
    const { calls: s1 } = await command(dev, got201, 26, { connectorId: 0, profile: stationMax });
    assert.deepEqual(s1.map((g) => g.params), [{
      evseId: 0,
      chargingProfile: {
        id: 201, stackLevel: 1, chargingProfilePurpose: 'ChargingStationMaxProfile', chargingProfileKind: 'Relative',
        chargingSchedule: [{ id: 201, chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, limit: 22000 }] }],
      },
    }]);
    // an absolute TxDefault on EVSE 1, valid for a day
    const start = Math.trunc(Date.now() / 1000) * 1000;
    const txDefault = {
      id: 202, stackLevel: 0, purpose: 'TxDefault', kind: 'Absolute', validTo: start + 86_400_000,
      schedule: { start, unit: 'A', minRate: 6, periods: [{ start: 0, limit: 16, phases: 3 }, { start: 3600, limit: 8 }] },
    };
    const { calls: s2 } = await command(dev, got201, 26, { connectorId: 1, profile: txDefault });
    const p2 = structuredClone(s2[0].params);
    assert.equal(Date.parse(p2.chargingProfile.validTo), start + 86_400_000, p2.chargingProfile.validTo);
    assert.equal(Date.parse(p2.chargingProfile.chargingSchedule[0].startSchedule), start, p2.chargingProfile.chargingSchedule[0].startSchedule);
    delete p2.chargingProfile.validTo;
    delete p2.chargingProfile.chargingSchedule[0].startSchedule;
    assert.deepEqual(p2, {
      evseId: 1,
      chargingProfile: {
        id: 202, stackLevel: 0, chargingProfilePurpose: 'TxDefaultProfile', chargingProfileKind: 'Absolute',
        chargingSchedule: [{ id: 202, chargingRateUnit: 'A', minChargingRate: 6, chargingSchedulePeriod: [{ startPeriod: 0, limit: 16, numberPhases: 3 }, { startPeriod: 3600, limit: 8 }] }],
      },
    });
    let list = await profiles(dev.id);
    assert.deepEqual(list.map((p) => [p.connectorId, p.profile.id, p.profile.purpose, p.state]).sort((a, b) => a[1] - b[1]),
      [[0, 201, 'ChargePointMax', 1], [1, 202, 'TxDefault', 1]]);

    // clear by criteria (EVSE 1, TxDefault) and by id
    const { calls: c1 } = await command(dev, got201, 27, { clear: { connectorId: 1, purpose: 'TxDefault' } });
    assert.deepEqual(c1.map((g) => g.params), [{ chargingProfileCriteria: { evseId: 1, chargingProfilePurpose: 'TxDefaultProfile' } }]);
    assert.deepEqual((await profiles(dev.id)).map((p) => p.profile.id), [201]);
    const { calls: c2 } = await command(dev, got201, 27, { clear: { id: 201 } });
    assert.deepEqual(c2.map((g) => g.params), [{ chargingProfileId: 201 }]);
    assert.deepEqual(await profiles(dev.id), []);

    // the composite schedule (2.0.1 asks with a unit: A when none was chosen)
    const { cmd, calls: g } = await command(dev, got201, 28, { connectorId: 1, duration: 1800 });
    assert.deepEqual(g.map((x) => x.params), [{ evseId: 1, duration: 1800, chargingRateUnit: 'A' }]);
    const answer = JSON.parse(cmd.answer);
    assert.deepEqual({ ...answer, start: 0 }, { connectorId: 1, start: 0, duration: 1800, unit: 'A', periods: [{ start: 0, limit: 20 }, { start: 600, limit: 12, phases: 1 }] });
    assert.ok(Math.abs(answer.start - Date.now()) < 10_000, `start ${answer.start}`);

    assert.ok(!got201.some((x) => x.action.startsWith('unexpected')), said(got201)());
    assert.deepEqual(problems, []);
  });

  test('the Smart charging tab in en-US: the profiles, one set and cleared through the dialogs, the composite schedule drawn', async () => {
    const dev = c16.device;
    const page = await rootPage(browser, server, { to: `/manage/device/detail/${dev.id}/smart` });
    const tab = page.getByTestId('device-smart');
    const table = tab.getByTestId('sc-profiles');
    const row = (id) => table.locator('tr.ant-table-row', { has: page.locator(`[data-testid="sc-profile-id"]:text-is("${id}")`) });
    for (const id of [101, REFUSED_ID, 900001, 900100]) await row(id).waitFor();
    assert.equal(await row(101).getByTestId('sc-profile-state').getAttribute('data-state'), '1');
    assert.equal(await row(101).getByTestId('sc-profile-state').innerText(), 'Installed');
    assert.equal(await row(REFUSED_ID).getByTestId('sc-profile-state').getAttribute('data-state'), '2');
    assert.equal(await row(REFUSED_ID).getByTestId('sc-profile-message').innerText(), 'The charger refused the charging profile');
    assert.equal(await row(900001).getByTestId('sc-profile-source').getAttribute('data-source'), 'load');
    assert.match(await row(101).getByTestId('sc-profile-periods').innerText(), /0s 16A · 1800s 10A×3/);

    // set a profile through the dialog: TxDefault on the charger at stack level 4, relative, 16 A
    const n = got16.length;
    await tab.getByTestId('sc-profile-set').click();
    const modal = page.getByTestId('sc-set-modal');
    await modal.waitFor();
    const id = Number(await modal.getByTestId('sc-set-id').inputValue());
    assert.equal(id, REFUSED_ID + 1, 'the next free operator id');
    await modal.getByTestId('sc-set-stack').fill('4');
    await modal.getByTestId('sc-set-period-limit').fill('12');
    await page.getByTestId('sc-set-send').click();
    await modal.waitFor({ state: 'detached' });
    const sent = got16.slice(n).find((g) => g.action === 'SetChargingProfile');
    assert.ok(sent, said(got16)());
    assert.deepEqual(sent.params, {
      connectorId: 0,
      csChargingProfiles: {
        chargingProfileId: id, stackLevel: 4, chargingProfilePurpose: 'TxDefaultProfile', chargingProfileKind: 'Relative',
        chargingSchedule: { chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 12 }] },
      },
    });
    await row(id).getByTestId('sc-profile-state').and(page.locator('[data-state="1"]')).waitFor();

    // clear it from its row
    await row(id).getByTestId('sc-profile-clear').click();
    await page.locator('.ant-modal-confirm-title', { hasText: `Clear profile ${id} from ${SN16}?` }).waitFor();
    await confirmOk(page);
    await row(id).waitFor({ state: 'detached' });
    assert.deepEqual(got16.at(-1).params, { id }, said(got16)());
    assert.ok(!(await profiles(dev.id)).some((p) => p.profile.id === id));

    // the composite schedule, drawn
    await tab.getByTestId('sc-composite-get').click();
    const chart = tab.getByTestId('sc-composite-chart');
    await chart.waitFor();
    const points = (await chart.getAttribute('data-points')).split(',').map((p) => Number(p.split(':')[1]));
    assert.deepEqual(points, [15.9, 10, 10], `the composite's points ${await chart.getAttribute('data-points')}`);
    assert.equal(await chart.getAttribute('data-unit'), 'A');
    assert.ok(await drawnPixels(chart) > 0, 'the composite schedule is drawn on its chart');
    if (shots) await tab.screenshot({ path: join(shots, 'smartcharging-device-en-US.png') });
    await page.close();
    assert.deepEqual(problems, []);
  });

  test('the Power tab in en-US: the limit and the allocation; a lower limit saved reaches the charger', async () => {
    const dev = c16.device;
    const site = c16.site;
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/manage/site/detail/${site.id}`);
    await page.getByTestId('site-tab-power').click();
    const power = page.getByTestId('site-power');
    const kw = (w) => `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(w / 1000)} kW`;
    const figure = (id, text) => power.getByTestId(id).getByText(text, { exact: true }).waitFor();
    await figure('site-power-limit-now', '11 kW');
    await figure('site-power-allocated', kw((await sitePower(site.id)).allocatedW)); // 15.9 A × 690 V: 10.97 kW
    assert.match(await power.getByTestId('site-power-limit-phases').innerText(), /15\.9 A \/ 15\.9 A \/ 15\.9 A/);
    assert.equal(Number(await power.getByTestId('site-power-limit').inputValue()), 11);
    assert.ok(await power.getByTestId('site-power-enabled').isChecked());
    const chargers = power.getByTestId('site-power-chargers');
    const alloc = chargers.locator('tr.ant-table-row', { hasText: SN16 });
    await alloc.getByTestId('site-power-state').and(page.locator('[data-state="1"]')).waitFor();
    assert.match(await alloc.innerText(), new RegExp(`\\b${tx16}\\b[\\s\\S]*15\\.9 A[\\s\\S]*Applied`));
    await power.getByTestId('site-power-chart').waitFor();
    if (shots) await power.screenshot({ path: join(shots, 'smartcharging-power-en-US.png') });

    // a lower limit in the form: saved, and the charger gets a smaller Tx profile
    const m = got16.length;
    await power.getByTestId('site-power-limit').fill('7');
    await power.getByTestId('site-power-save').click();
    await page.locator('.ant-message', { hasText: 'Power setting saved' }).waitFor();
    const saved = await sitePower(site.id);
    assert.deepEqual([saved.power.enabled, saved.power.limitKw], [true, 7]);
    const lower = await until('the lower Tx profile', () => got16.slice(m).find((g) => g.action === 'SetChargingProfile' && g.params.csChargingProfiles.chargingProfilePurpose === 'TxProfile'), 5000, said(got16));
    assert.equal(lower.params.csChargingProfiles.transactionId, tx16);
    newLimit = lower.params.csChargingProfiles.chargingSchedule.chargingSchedulePeriod[0].limit;
    assert.ok(newLimit <= 7000 / 690 && newLimit >= perPhase(7) - 0.1, `the new limit ${newLimit} A, want ≤ 10.14`);
    await figure('site-power-limit-now', '7 kW');
    await figure('site-power-allocated', kw(newLimit * 690));
    await alloc.getByText(`${perPhase(7)} A`).waitFor();
    await until('the new allocation applied', async () => (await sitePower(site.id)).chargers.some((c) => c.transactionId === tx16 && c.state === 1 && c.limitA === newLimit), 5000);
    // the charger's safe share fell with the limit: a new fallback, installed
    const fb = await until('the lower fallback', () => got16.slice(m).find((g) => g.action === 'SetChargingProfile' && g.params.csChargingProfiles.chargingProfileId === 900100), 5000, said(got16));
    assert.ok(fb.params.csChargingProfiles.chargingSchedule.chargingSchedulePeriod[0].limit <= perPhase(7), `the new fallback ${JSON.stringify(fb.params)}`);
    await until('the lower fallback installed', async () => (await profiles(dev.id)).some((p) => p.profile.id === 900100 && p.state === 1
      && p.profile.schedule.periods[0].limit === fb.params.csChargingProfiles.chargingSchedule.chargingSchedulePeriod[0].limit), 5000);
    if (shots) await power.screenshot({ path: join(shots, 'smartcharging-power-saved-en-US.png') });
    await page.close();
    assert.deepEqual(problems, []);
  });

  test('the console in zh-CN: the Power tab and the Smart charging tab in Chinese, no raw keys', async () => {
    const dev = c16.device;
    const site = c16.site;
    const page = await browser.context.newPage();
    await page.addInitScript(() => localStorage.setItem('chargeops_locale', 'zh-CN'));
    const rawKey = /\b(sc|power|site)\.[a-z]/;

    await page.goto(`${server.url}/manage/site/detail/${site.id}`);
    await page.getByTestId('site-tab-power').filter({ hasText: '功率' }).click();
    const power = page.getByTestId('site-power');
    for (const text of ['当前功率', '功率限制与负载管理', '参与规划的充电桩', '站点功率']) await power.getByText(text, { exact: true }).first().waitFor();
    const alloc = power.getByTestId('site-power-chargers').locator('tr.ant-table-row', { hasText: SN16 });
    assert.equal(await alloc.getByTestId('site-power-state').innerText(), '已生效');
    const powerText = await power.innerText();
    assert.doesNotMatch(powerText, rawKey, 'a raw i18n key on the Power tab');
    if (shots) await power.screenshot({ path: join(shots, 'smartcharging-power-zh-CN.png') });

    await page.goto(`${server.url}/manage/device/detail/${dev.id}/smart`);
    await page.getByTestId('device-tab-smart').filter({ hasText: '智能充电' }).waitFor();
    const tab = page.getByTestId('device-smart');
    const table = tab.getByTestId('sc-profiles');
    await table.locator('tr.ant-table-row').nth(3).waitFor();
    for (const text of ['充电配置文件', '组合计划', '负载管理']) await tab.getByText(text, { exact: true }).first().waitFor();
    const states = await table.getByTestId('sc-profile-state').allInnerTexts();
    assert.ok(states.includes('已安装') && states.includes('被拒绝'), `states ${states}`);
    assert.equal(await table.getByTestId('sc-profile-message').first().innerText(), '充电桩拒绝了该充电配置文件');
    const sources = await table.getByTestId('sc-profile-source').allInnerTexts();
    assert.ok(sources.includes('负载管理') && sources.includes('运维人员'), `sources ${sources}`);
    const headers = (await table.locator('thead th').allInnerTexts()).map((h) => h.trim());
    for (const h of ['配置文件编号', '用途', '堆叠级别', '状态']) assert.ok(headers.includes(h), `header ${h} among ${headers}`);
    await tab.getByTestId('sc-composite-get').filter({ hasText: '从充电桩获取' }).click();
    await tab.getByTestId('sc-composite-chart').locator('canvas').first().waitFor();
    const smartText = await tab.innerText();
    assert.doesNotMatch(smartText, rawKey, 'a raw i18n key on the Smart charging tab');
    if (shots) await tab.screenshot({ path: join(shots, 'smartcharging-device-zh-CN.png') });
    await page.close();
    assert.deepEqual(problems, []);
  });

  test("the Power tab's chart draws the site's first sample, in en-US and zh-CN", async () => {
    const site = c16.site;
    // a site gets its first sample when it is first planned, then one a minute
    const history = () => root.must('GET', `/api/auth/sys/site/power/history?siteId=${site.id}&start=${startedAt - 60_000}&end=${Date.now() + 60_000}`);
    const samples = await until('the first power sample', async () => {
      const h = await history();
      return h.length > 0 && h;
    }, 10_000);
    // each sample holds the limit then in force (11 kW, or the 7 kW set in the console) and a
    // planned power within it
    for (const sm of samples) {
      assert.ok([11000, 7000].includes(Math.round(sm.limitW)), `a sample's limit ${JSON.stringify(sm)}`);
      assert.ok(sm.allocatedW <= sm.limitW + 1, `a sample planned over its limit ${JSON.stringify(sm)}`);
    }

    for (const [locale, title] of [['en-US', 'Site power'], ['zh-CN', '站点功率']]) {
      const page = await browser.context.newPage();
      await page.addInitScript((l) => localStorage.setItem('chargeops_locale', l), locale);
      await page.goto(`${server.url}/manage/site/detail/${site.id}`);
      await page.getByTestId('site-tab-power').click();
      const power = page.getByTestId('site-power');
      const card = power.locator('.ant-card', { has: page.getByTestId('site-power-chart') });
      await card.locator('.ant-card-head-title', { hasText: title }).waitFor();
      const chart = power.locator('[data-testid="site-power-chart"]:not([data-points="0"])');
      await chart.waitFor();
      assert.ok(Number(await chart.getAttribute('data-points')) >= 1);
      assert.equal(await chart.getAttribute('data-empty'), '0');
      await chart.locator('canvas').first().waitFor();
      if (shots) await card.screenshot({ path: join(shots, `smartcharging-power-chart-${locale}.png`) });
      // the sample is drawn: a chart with its one sample shows its limit and planned power
      // (a point of each series), not the empty axes
      assert.ok(await drawnPixels(chart) > 0, `${locale}: the chart's one sample is not drawn (its series show no symbol for a single point)`);
      await page.close();
    }
  });
});
