import { describe, expect, it } from 'vitest';
import type { HomeOverview } from '../../services/stats';
import { activitySlices, deviceListUrl, healthSlices, kindEvents, kindSlices, levelEvents, levelSlices, modelKey, modelSlices, openAlarmEvents, startedEvents, sum } from './figures';

const t = (k: string) => k;
const overview: HomeOverview = {
  devices: 1200,
  health: { noFault: 1100, partFault: 60, fault: 40 },
  activity: { idle: 700, working: 300, faulted: 40, maintain: 5, updating: 3, restarting: 2, offline: 140, disabled: 10 },
  byModel: [
    { modelId: 3, name: 'DC 120 kW', count: 500 },
    { modelId: 0, name: '', count: 700 },
  ],
  alarmLevels: { oa: 12, ma: 30, ca: 40 },
  devicesInAlarm: 100,
  faultTypes: { offline: 140, alarm: 42, fault: 40, unavailable: 7 },
  categories: { evCharger: 900, acCharger: 200, storageCharger: 50, storageDevice: 30, homeStorage: 15, v2gCharger: 5 },
};

describe('home figures', () => {
  it('partitions the devices twice', () => {
    expect(sum(activitySlices(overview, t))).toBe(1200);
    expect(sum(healthSlices(overview, t))).toBe(1200);
    expect(activitySlices(overview, t).find((s) => s.key === 'restarting')?.value).toBe(2);
  });
  it('names the other models', () => {
    expect(modelSlices(overview, t).map((s) => [s.key, s.name, s.value])).toEqual([
      ['model-3', 'DC 120 kW', 500],
      ['model-others', 'home.models.others', 700],
    ]);
  });
  it('keeps levels and kinds in code order', () => {
    expect(levelSlices(overview, t).map((s) => [s.key, s.name, s.value])).toEqual([
      ['oa', 'event.level.0', 12],
      ['ma', 'event.level.1', 30],
      ['ca', 'event.level.2', 40],
    ]);
    expect(kindSlices(overview, t).map((s) => s.name)).toEqual(['event.kind.0', 'event.kind.1', 'event.kind.2', 'event.kind.3']);
  });
  it('has no slices before the answer', () => {
    expect(activitySlices(undefined, t)).toEqual([]);
    expect(modelSlices(undefined, t)).toEqual([]);
  });
});

describe('lists behind the figures', () => {
  it('opens the device list filtered', () => {
    expect(deviceListUrl('idle')).toBe('/manage/device/list?status=1&restarting=0');
    expect(deviceListUrl('offline')).toBe('/manage/device/list?status=0&restarting=0');
    expect(deviceListUrl('disabled')).toBe('/manage/device/list?status=6&restarting=0');
    expect(deviceListUrl('restarting')).toBe('/manage/device/list?restarting=1');
    expect(deviceListUrl('partFault')).toBe('/manage/device/list?alarmStatus=1');
    expect(deviceListUrl('fault')).toBe('/manage/device/list?alarmStatus=2');
    expect(deviceListUrl(modelKey(3))).toBe('/manage/device/list?modelId=3');
    expect(deviceListUrl(modelKey(0))).toBe('/manage/device/list');
    expect(deviceListUrl('nope')).toBeNull();
  });
  it('opens the event list filtered', () => {
    expect(levelEvents('ma')).toEqual({ status: 0, kinds: [1, 2], level: 1 });
    expect(levelEvents('xx')).toBeNull();
    expect(openAlarmEvents()).toEqual({ status: 0, kinds: [1, 2] });
    expect(kindEvents('unavailable')).toEqual({ status: 0, kinds: [3] });
    expect(startedEvents(10, 20, 'offline')).toEqual({ kinds: [0], start: 10, end: 20 });
    expect(startedEvents(10, 20)).toEqual({ start: 10, end: 20 });
  });
});
