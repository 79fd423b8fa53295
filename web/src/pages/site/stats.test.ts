import { describe, expect, it } from 'vitest';
import { availabilityText, deviceListHref, formatKWh, STACK_GRID, statusCounts, statusSlices, trafficPoints } from './stats';

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

  it('leaves the buckets after now without figures (null, not zero), the current one with its figures so far', () => {
    const day = 86_400_000;
    const now = 10 * day + 3600_000; // an hour into day 10
    const b = (d: number, sessions: number) => ({ time: d * day, sessions, energyWh: sessions * 1000, chargeMs: sessions * 3_600_000, faults: 0 });
    const points = trafficPoints([b(9, 4), b(10, 2), b(11, 0), b(12, 0)], now);
    expect(points.map((p) => p.time)).toEqual([9 * day, 10 * day, 11 * day, 12 * day]);
    expect(points[0]).toEqual({ time: 9 * day, sessions: 4, energyKWh: 4, chargeHours: 4, faults: 0 });
    expect(points[1]).toEqual({ time: 10 * day, sessions: 2, energyKWh: 2, chargeHours: 2, faults: 0 });
    expect(points[2]).toEqual({ time: 11 * day, sessions: null, energyKWh: null, chargeHours: null, faults: null });
    expect(points[3].energyKWh).toBeNull();
    // a past day without traffic is a real zero
    expect(trafficPoints([b(9, 0)], now)[0].sessions).toBe(0);
  });

  it('gives the stacked traffic charts one fixed grid', () => {
    expect(STACK_GRID.left).toBeGreaterThan(40);
    expect(STACK_GRID.right).toBeGreaterThan(40);
  });
});
