import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import type { SitePowerSetting } from '../../../services/power';
import { formToSetting, historySeries, isPaused, settingToForm, spanMs, usagePercent, usageStatus } from './sitePower';

const setting: SitePowerSetting = {
  siteId: 3,
  enabled: true,
  limitKw: 0,
  limitA: 63,
  minA: 6,
  schedule: [{ from: '17:00', to: '21:00', days: [1, 2, 3, 4, 5], limitKw: 40 }],
  editLevel: 2,
  updatedBy: 'ops',
  updatedAt: 10,
};

describe('site power logic', () => {
  it('edits the limit in the unit it was given in', () => {
    const f = settingToForm(setting);
    expect(f.limitMode).toBe('a');
    expect(f.limit).toBe(63);
    expect(settingToForm({ ...setting, limitA: 0, limitKw: 120 })).toMatchObject({ limitMode: 'kw', limit: 120 });
    expect(settingToForm({ ...setting, limitA: 0, limitKw: 0, minA: 0 })).toMatchObject({ limitMode: 'kw', limit: null, minA: 6 });
  });

  it('sends exactly one of limitKw and limitA, windows as HH:mm with sorted days', () => {
    const out = formToSetting(
      {
        enabled: true,
        limitMode: 'kw',
        limit: 80,
        minA: 8,
        editLevel: 1,
        schedule: [{ from: dayjs().hour(7).minute(5), to: '09:30', days: [3, 1, 3], limitKw: 20 }],
      },
      setting,
    );
    expect(out).toEqual({
      siteId: 3,
      enabled: true,
      limitKw: 80,
      limitA: 0,
      minA: 8,
      editLevel: 1,
      schedule: [{ from: '07:05', to: '09:30', days: [1, 3], limitKw: 20 }],
      updatedBy: 'ops',
      updatedAt: 10,
    });
    expect(formToSetting({ enabled: false, limitMode: 'a', limit: null, editLevel: 1 }, setting)).toMatchObject({ limitKw: 0, limitA: 0, minA: 6, schedule: [] });
  });

  it('shows the measured share of the limit', () => {
    expect(usagePercent(5000, 10000)).toBe(50);
    expect(usagePercent(12000, 10000)).toBe(100);
    expect(usagePercent(100, 0)).toBeNull();
    expect(usageStatus(null)).toBe('normal');
    expect(usageStatus(50)).toBe('success');
    expect(usageStatus(85)).toBe('active');
    expect(usageStatus(97)).toBe('exception');
  });

  it('turns the history into kW series, a missing limit as a gap', () => {
    const s = historySeries([
      { at: 120_000, limitW: 0, allocatedW: 1000, actualW: 900, sessions: 1 },
      { at: 60_000, limitW: 22_000, allocatedW: 11_000, actualW: 10_500, sessions: 2 },
    ]);
    expect(s.limit).toEqual([
      [60_000, 22],
      [120_000, null],
    ]);
    expect(s.planned).toEqual([
      [60_000, 11],
      [120_000, 1],
    ]);
    expect(s.measured).toEqual([
      [60_000, 10.5],
      [120_000, 0.9],
    ]);
    expect(historySeries(undefined).limit).toEqual([]);
  });

  it('knows the spans and a paused allocation', () => {
    expect(spanMs('1h')).toBe(3_600_000);
    expect(spanMs('7d')).toBe(604_800_000);
    expect(isPaused(0)).toBe(true);
    expect(isPaused(6)).toBe(false);
  });
});
