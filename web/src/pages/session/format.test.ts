import { describe, expect, it } from 'vitest';
import { formatKW, formatKWh, formatSessionDuration, quickRanges, sessionDuration } from './format';

describe('session formatting', () => {
  it('writes energy in kWh with its unit', () => {
    expect(formatKWh(12500)).toBe('12.50 kWh');
    expect(formatKWh(0)).toBe('0.00 kWh');
    expect(formatKWh(1234567)).toBe('1,234.57 kWh');
    expect(formatKWh(5)).toBe('0.01 kWh');
    expect(formatKWh(undefined)).toBe('-');
    expect(formatKWh(Number.NaN)).toBe('-');
  });

  it('writes power in kW with its unit', () => {
    expect(formatKW(7200)).toBe('7.2 kW');
    expect(formatKW(150000)).toBe('150.0 kW');
    expect(formatKW(null)).toBe('-');
  });

  it('writes a duration as h:mm:ss, hours beyond a day included', () => {
    expect(formatSessionDuration(0)).toBe('0:00:00');
    expect(formatSessionDuration(2 * 3600_000)).toBe('2:00:00');
    expect(formatSessionDuration(35 * 60_000 + 7_999)).toBe('0:35:07');
    expect(formatSessionDuration(26 * 3600_000 + 61_000)).toBe('26:01:01');
    expect(formatSessionDuration(-1)).toBe('-');
  });

  it('counts a charging session to now and an ended one to its stop', () => {
    expect(sessionDuration({ startedAt: 1000, stoppedAt: 5000 }, 9000)).toBe(4000);
    expect(sessionDuration({ startedAt: 1000, stoppedAt: 0 }, 9000)).toBe(8000);
  });

  it('gives quick ranges that end after now and start at midnight or the first of the month', () => {
    const now = new Date(2026, 2, 15, 10, 30);
    const r = quickRanges(now);
    expect(r.today[0]).toBe(new Date(2026, 2, 15).getTime());
    expect(r.month[0]).toBe(new Date(2026, 2, 1).getTime());
    expect(r['7d'][0]).toBe(now.getTime() - 7 * 86_400_000);
    for (const [a, b] of Object.values(r)) expect(b).toBeGreaterThan(a);
  });
});
