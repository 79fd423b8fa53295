import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { formatTime, fromPicker, isPastOrWithin30Min, setTimeZone, toPicker, TIME_CHECK_MS } from './time';

describe('pickers work in the configured zone, not the browser zone', () => {
  it('reads a picked wall clock in the configured zone', () => {
    setTimeZone('Asia/Hong_Kong');
    // 10:00 picked on screen means 10:00 Hong Kong time = 02:00 UTC.
    expect(fromPicker(dayjs('2026-11-22 10:00:00'))).toBe(Date.UTC(2026, 10, 22, 2, 0, 0));
  });
  it('round-trips an instant through the picker unchanged', () => {
    setTimeZone('Asia/Hong_Kong');
    const t = Date.UTC(2026, 0, 15, 18, 30, 0);
    expect(fromPicker(toPicker(t))).toBe(t);
    expect(toPicker(t).format('YYYY-MM-DD HH:mm:ss')).toBe(formatTime(t));
  });
});

describe('the 30-minute time check', () => {
  const now = Date.UTC(2026, 10, 26, 12, 0, 0);
  it('is true for a time in the past', () => {
    expect(isPastOrWithin30Min(now - 1, now)).toBe(true);
    expect(isPastOrWithin30Min(now - 86_400_000, now)).toBe(true);
  });
  it('is true up to and including 30 minutes (1,800,000 ms) ahead', () => {
    expect(TIME_CHECK_MS).toBe(1_800_000);
    expect(isPastOrWithin30Min(now, now)).toBe(true);
    expect(isPastOrWithin30Min(now + 29 * 60_000, now)).toBe(true);
    expect(isPastOrWithin30Min(now + 1_800_000, now)).toBe(true);
  });
  it('is false beyond 30 minutes ahead', () => {
    expect(isPastOrWithin30Min(now + 1_800_001, now)).toBe(false);
    expect(isPastOrWithin30Min(new Date(now + 3_600_000), now)).toBe(false);
    expect(isPastOrWithin30Min(dayjs(now + 31 * 60_000), now)).toBe(false);
  });
});
