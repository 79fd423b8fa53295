import { describe, expect, it } from 'vitest';
import {
  uploadArrived,
  watchUploads,
  statusBadges,
  statusCountFilter,
  alignSeries,
  batchProgress,
  bucketLabel,
  configChanges,
  MONTH_STEP,
  parseStatusEvent,
  patchPage,
  pollCommand,
  pollInterval,
  prettyFrame,
  StatusBook,
  stepLabel,
  suggestStep,
  usableControls,
  controlAllowed,
  type ControlItem,
} from './fleet';
import { paramsOf } from '../pages/device/BatchModal';

const row = (id: number, status: number, alarmStatus = 0) => ({ id, sn: `SN${id}`, status, alarmStatus });

describe('status push + polling merge', () => {
  it('patches the one row of a cached page and keeps untouched pages identical', () => {
    const page = { total: 2, list: [row(1, 2), row(2, 1)] };
    const next = patchPage(page, { deviceId: 1, status: 3, alarmStatus: 2 })!;
    expect(next).not.toBe(page);
    expect(next.list[0]).toEqual({ id: 1, sn: 'SN1', status: 3, alarmStatus: 2 });
    expect(next.list[1]).toBe(page.list[1]);
    expect(patchPage(page, { deviceId: 9, status: 3, alarmStatus: 0 })).toBe(page);
    expect(patchPage(page, { deviceId: 2, status: 1, alarmStatus: 0 })).toBe(page);
    expect(patchPage(undefined, { deviceId: 1, status: 3, alarmStatus: 0 })).toBeUndefined();
  });

  it('a list fetched before a push cannot undo it; one fetched after wins', () => {
    const book = new StatusBook();
    book.record({ deviceId: 1, status: 3, alarmStatus: 2 }, 1000);
    const stale = [row(1, 2), row(2, 1)];
    const merged = book.overlay(stale, 900); // the poll started before the push arrived
    expect(merged[0].status).toBe(3);
    expect(merged[0].alarmStatus).toBe(2);
    expect(merged[1]).toBe(stale[1]);
    const fresh = [row(1, 1)];
    expect(book.overlay(fresh, 1500)).toBe(fresh); // fetched after: the server's answer stands
  });

  it('forgets old changes', () => {
    const book = new StatusBook(100);
    book.record({ deviceId: 1, status: 3, alarmStatus: 0 }, 0);
    book.record({ deviceId: 2, status: 3, alarmStatus: 0 }, 500);
    expect(book.overlay([row(1, 2)], 0)[0].status).toBe(2);
  });

  it('parses status events and polls only while the stream is down', () => {
    expect(parseStatusEvent('{"deviceId":4,"sn":"A","status":3,"alarmStatus":2,"online":true,"time":1}')).toEqual({ deviceId: 4, status: 3, alarmStatus: 2 });
    expect(parseStatusEvent('nonsense')).toBeNull();
    expect(parseStatusEvent('{"sn":"A"}')).toBeNull();
    expect(pollInterval(true)).toBe(false);
    expect(pollInterval(false)).toBe(30_000);
  });
});

describe('command-result polling', () => {
  it('reads until the result is no longer waiting', async () => {
    const answers = [1, 1, 2];
    const seen: number[] = [];
    const sleeps: number[] = [];
    const c = await pollCommand(async () => ({ result: answers.shift()! }), {
      interval: 500,
      sleep: async (ms) => void sleeps.push(ms),
      onUpdate: (c) => seen.push(c.result),
    });
    expect(c).toEqual({ result: 2 });
    expect(seen).toEqual([1, 1, 2]);
    expect(sleeps).toEqual([500, 500]);
  });

  it('retries failed reads and gives up after maxWait with the last state', async () => {
    let now = 0;
    let n = 0;
    const c = await pollCommand(
      async () => {
        n++;
        if (n === 1) throw new Error('lost');
        return { result: 1 };
      },
      { interval: 1000, maxWait: 3000, now: () => now, sleep: async (ms) => void (now += ms) },
    );
    expect(c).toEqual({ result: 1 });
    expect(n).toBe(4);
  });

  it('stops when aborted', async () => {
    const ctl = new AbortController();
    let n = 0;
    const c = await pollCommand(
      async () => {
        n++;
        ctl.abort();
        return { result: 1 };
      },
      { signal: ctl.signal, sleep: async () => undefined },
    );
    expect(n).toBe(1);
    expect(c).toEqual({ result: 1 });
  });

  it('counts batch progress', () => {
    expect(batchProgress([2, 1, 5, undefined])).toEqual({ done: 2, total: 4, percent: 50 });
    expect(batchProgress([])).toEqual({ done: 0, total: 0, percent: 100 });
  });
});

describe('control items by level', () => {
  const item = (type: number, level: number, prio = 0, name = `op${type}`): ControlItem => ({
    id: type,
    kind: 'control',
    controlName: name,
    controlTypeCode: type,
    controlLevel: level,
    displayPriority: prio,
  });
  const items = [item(2, 1, 5), item(1, 3, 1, 'Soft reboot'), item(7, 5, 9), item(11, 2, 2)];

  it('keeps the items at the user level or numerically higher, in display order', () => {
    expect(usableControls(items, { root: false, level: 3 }).map((c) => c.type)).toEqual([1, 7]);
    expect(usableControls(items, { root: false, level: 0 }).map((c) => c.type)).toEqual([1, 11, 2, 7]);
    expect(usableControls(items, { root: false, level: 5 }).map((c) => c.type)).toEqual([7]);
    expect(usableControls(items, { root: true, level: 5 }).map((c) => c.type)).toEqual([1, 11, 2, 7]);
    expect(usableControls(items, { root: false, level: 3 })[0].name).toBe('Soft reboot');
  });

  it('compares each type with the level the server uses for it (link, download, parameter)', () => {
    const byType = (type: number) =>
      type === 7 || type === 8 ? null : type === 9 ? { root: false, level: 0 } : { root: false, level: 5 };
    const its = [item(7, 5), item(9, 1), item(1, 5), item(2, 1)];
    expect(usableControls(its, byType).map((c) => c.type)).toEqual([1, 9]);
    expect(usableControls([], byType).map((c) => c.type)).not.toContain(7);
  });

  it('offers the standard operations but VPN when the model lists none', () => {
    const types = usableControls([], { root: false, level: 5 }).map((c) => c.type);
    expect(types).toContain(1);
    expect(types).not.toContain(7);
    expect(types).not.toContain(8);
  });

  it('allows one control type as the server does: listed and at the level, any at level 5 when none is listed', () => {
    const storage = [item(29, 2), item(30, 3), item(31, 2), item(9, 4)];
    expect(controlAllowed(storage, { root: false, level: 2 }, 29)).toBe(true);
    expect(controlAllowed(storage, { root: false, level: 3 }, 29)).toBe(false);
    expect(controlAllowed(storage, { root: false, level: 3 }, 30)).toBe(true);
    expect(controlAllowed(storage, { root: false, level: 0 }, 32)).toBe(false); // not listed
    expect(controlAllowed(storage, { root: true, level: 5 }, 29)).toBe(true);
    expect(controlAllowed([], { root: false, level: 5 }, 32)).toBe(true);
    expect(controlAllowed([], () => null, 32)).toBe(false);
  });

  it('refuses config values equal to the current value', () => {
    expect(configChanges([{ key: 'HeartbeatInterval', value: '60' }, { key: ' MeterValueSampleInterval ', value: '30' }, { key: '', value: 'x' }], {
      HeartbeatInterval: '60',
      MeterValueSampleInterval: '10',
    })).toEqual({ items: [{ key: 'MeterValueSampleInterval', value: '30' }], same: ['HeartbeatInterval'] });
  });

  it('builds the params of a batch operation', () => {
    expect(paramsOf({ controlType: 3, enable: true })).toEqual({ enable: true });
    expect(paramsOf({ controlType: 4, connectorId: 2 })).toEqual({ connectorId: 2, enable: false });
    expect(paramsOf({ controlType: 11, items: [{ key: ' A ', value: '1' }, { key: '', value: '2' }] })).toEqual({ items: [{ key: 'A', value: '1' }] });
    expect(paramsOf({ controlType: 1 })).toEqual({});
  });
});

describe('series steps and buckets', () => {
  const tz = 'Asia/Hong_Kong';
  const t0 = Date.UTC(2026, 0, 31, 16, 0); // 2026-02-01 00:00 in Hong Kong

  it('labels steps', () => {
    expect(stepLabel(15)).toEqual({ key: 'chart.step.minutes', count: 15 });
    expect(stepLabel(60)).toEqual({ key: 'chart.step.hours', count: 1 });
    expect(stepLabel(1440)).toEqual({ key: 'chart.step.days', count: 1 });
    expect(stepLabel(MONTH_STEP)).toEqual({ key: 'chart.step.month', count: 1 });
  });

  it('labels buckets by step in the configured zone; 43200 = months', () => {
    expect(bucketLabel(t0, MONTH_STEP, tz)).toBe('2026-02');
    expect(bucketLabel(t0, 1440, tz)).toBe('2026-02-01');
    expect(bucketLabel(t0 + 90 * 60_000, 15, tz)).toBe('02-01 01:30');
  });

  it('suggests a step that keeps the range small', () => {
    expect(suggestStep(60 * 60_000)).toBe(1);
    expect(suggestStep(24 * 3600_000)).toBe(5);
    expect(suggestStep(30 * 24 * 3600_000)).toBe(1440);
    expect(suggestStep(5 * 365 * 24 * 3600_000)).toBe(MONTH_STEP);
  });

  it('aligns series on the union of their buckets', () => {
    const a = alignSeries(
      [
        { name: 'Power', points: [{ time: t0, avg: 1.23456 }, { time: t0 + 2, avg: 2 }] },
        { name: 'Voltage', points: [{ time: t0 + 1, avg: 230 }] },
      ],
      MONTH_STEP,
      tz,
    );
    expect(a.times).toEqual([t0, t0 + 1, t0 + 2]);
    expect(a.values.Power).toEqual([1.235, null, 2]);
    expect(a.values.Voltage).toEqual([null, 230, null]);
    expect(a.labels[0]).toBe('2026-02');
  });
});

describe('protocol frames', () => {
  it('indents OCPP-J frames', () => {
    expect(prettyFrame('[3,"1",{"status":"Accepted"}]')).toBe('[\n  3,\n  "1",\n  {\n    "status": "Accepted"\n  }\n]');
    expect(prettyFrame('not json')).toBe('not json');
  });
});

describe('status counts follow the list filters', () => {
  it('sends every filter but status and paging, without empty values', () => {
    expect(statusCountFilter({ status: 2, page: 3, pageSize: 50, customerId: 4, siteId: 9, modelId: 2, alarmStatus: 1, keyword: '  CP-0 ' })).toEqual({
      customerId: 4,
      siteId: 9,
      modelId: 2,
      alarmStatus: 1,
      keyword: 'CP-0',
    });
    expect(statusCountFilter({ keyword: '   ', siteId: undefined, status: 1 })).toEqual({});
    // the protocol of the last connection
    expect(statusCountFilter({ protocol: 'ocpp1.6', status: 1 })).toEqual({ protocol: 'ocpp1.6' });
    expect(statusCountFilter({ protocol: '' })).toEqual({});
    // the site device category (issue 26): 0 is none
    expect(statusCountFilter({ category: 4, protocol: 'mqtt', status: 1 })).toEqual({ category: 4, protocol: 'mqtt' });
    expect(statusCountFilter({ category: 0 })).toEqual({});
  });

  it('keeps alarm status 0 (no alarm) as a filter', () => {
    expect(statusCountFilter({ alarmStatus: 0 })).toEqual({ alarmStatus: 0 });
    // the home dashboard's restarting link counts (and marks as filtered) like the list
    expect(statusCountFilter({ restarting: 1 })).toEqual({ restarting: true });
    expect(statusCountFilter({ restarting: 0, siteId: 2 })).toEqual({ siteId: 2, restarting: false });
    expect(statusCountFilter({ restarting: 'x' })).toEqual({});
  });

  it('sums the shown statuses into "all"', () => {
    const b = statusBadges({ '1': 12, '3': 2 }, [0, 1, 2, 3], true);
    expect(b).toEqual({ all: '14', by: { 0: '0', 1: '12', 2: '0', 3: '2' } });
  });

  it('marks a filtered count over the window as more, and the sum with it', () => {
    const b = statusBadges({ '1': 10_001, '3': 40 }, [1, 3], true);
    expect(b.by[1]).toBe('10000+');
    expect(b.all).toBe('10040+');
    expect(statusBadges({ '1': 250_000 }, [1], false)).toEqual({ all: '250000', by: { 1: '250000' } });
  });
});

describe('awaiting a diagnostics upload', () => {
  it('waits until a complete file that was not there before is listed', () => {
    const w = watchUploads([{ id: 1, complete: true }, { id: 2, complete: false }], 1000);
    expect(w.known).toEqual([1]);
    expect(uploadArrived(w, [{ id: 1, complete: true }], 2000)).toBe(false);
    expect(uploadArrived(w, [{ id: 3, complete: false }, { id: 1, complete: true }], 2000)).toBe(false);
    expect(uploadArrived(w, [{ id: 3, complete: true }, { id: 1, complete: true }], 2000)).toBe(true);
    // a file incomplete when the command was accepted counts once it completes
    expect(uploadArrived(w, [{ id: 2, complete: true }], 2000)).toBe(true);
  });

  it('gives up after the longest wait', () => {
    const w = watchUploads([], 0);
    expect(uploadArrived(w, [], 5 * 60_000 - 1)).toBe(false);
    expect(uploadArrived(w, [], 5 * 60_000)).toBe(true);
  });
});
