import { describe, expect, it } from 'vitest';
import { availabilityText, deviceListHref, formatKWh, statusCounts, statusSlices, trafficPoints } from './stats';

describe('site statistics', () => {
  it('lists the statuses with devices in status order, unknown codes last', () => {
    expect(statusCounts({ '2': 8, '0': 2, '1': 30, '6': 0, '9': 1 })).toEqual([
      { status: 0, count: 2 },
      { status: 1, count: 30 },
      { status: 2, count: 8 },
      { status: 9, count: 1 },
    ]);
    expect(statusCounts({})).toEqual([]);
    expect(statusCounts(null)).toEqual([]);
  });

  it('makes a slice per status with devices, keyed by the status code', () => {
    expect(statusSlices({ '3': 2, '1': 5 }, (s) => `S${s}`)).toEqual([
      { key: '1', name: 'S1', value: 5, color: '#52c41a' },
      { key: '3', name: 'S3', value: 2, color: '#ff4d4f' },
    ]);
  });

  it('opens the device list of the site and status', () => {
    expect(deviceListHref(4, 3)).toBe('/manage/device/list?siteId=4&status=3');
  });

  it('shows availability as a percentage, "-" without devices', () => {
    expect(availabilityText(0.987, 'en-US')).toBe('98.7%');
    expect(availabilityText(1, 'en-US')).toBe('100%');
    expect(availabilityText(0, 'en-US')).toBe('0%');
    expect(availabilityText(null, 'en-US')).toBe('-');
    expect(availabilityText(undefined, 'en-US')).toBe('-');
  });

  it('shows kWh with one decimal at most', () => {
    expect(formatKWh(1234.56, 'en-US')).toBe('1,234.6 kWh');
    expect(formatKWh(0, 'en-US')).toBe('0 kWh');
  });

  it('converts traffic buckets to kWh and hours', () => {
    expect(trafficPoints([{ time: 1, sessions: 12, energyWh: 240_500, chargeMs: 43_200_000, faults: 2 }])).toEqual([
      { time: 1, sessions: 12, energyKWh: 240.5, chargeHours: 12, faults: 2 },
    ]);
    expect(trafficPoints(undefined)).toEqual([]);
  });
});
