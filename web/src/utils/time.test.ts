import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { formatClock, formatTime, formatUTC, fromPicker, isPastOrWithin30Min, setTimeZone, toPicker, TIME_CHECK_MS, zoneLabel, zoneNow } from './time';

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
    expect(`${toPicker(t).format('YYYY-MM-DD HH:mm:ss')} UTC+8`).toBe(formatTime(t));
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

describe('times show the zone (issue 30)', () => {
  it('names the offset of the shown zone after every time', () => {
    const t = Date.UTC(2026, 10, 26, 10, 42, 5);
    expect(formatTime(t, 'Asia/Hong_Kong')).toBe('2026-11-26 18:42:05 UTC+8');
    expect(formatTime(t, 'Asia/Kolkata')).toBe('2026-11-26 16:12:05 UTC+5:30');
    expect(formatTime(t, 'America/Sao_Paulo')).toBe('2026-11-26 07:42:05 UTC-3');
    expect(formatTime(t, 'UTC')).toBe('2026-11-26 10:42:05 UTC');
    expect(formatUTC(t)).toBe('2026-11-26 10:42:05 UTC');
  });
  it('follows daylight saving at the instant shown', () => {
    expect(formatTime(Date.UTC(2026, 0, 15, 12), 'Europe/Berlin')).toBe('2026-01-15 13:00:00 UTC+1');
    expect(formatTime(Date.UTC(2026, 6, 15, 12), 'Europe/Berlin')).toBe('2026-07-15 14:00:00 UTC+2');
  });
  it('labels offsets', () => {
    expect(zoneLabel(0)).toBe('UTC');
    expect(zoneLabel(480)).toBe('UTC+8');
    expect(zoneLabel(-210)).toBe('UTC-3:30');
    expect(zoneLabel(345)).toBe('UTC+5:45');
  });
  it('keeps empty values empty', () => {
    expect(formatTime(0)).toBe('-');
    expect(formatUTC(null)).toBe('-');
    expect(formatTime('not a time')).toBe('-');
  });
  it('a dense table names the zone once in its header: the clock alone in the cells', () => {
    const t = Date.UTC(2026, 10, 26, 10, 42, 5);
    expect(formatClock(t, 'Asia/Hong_Kong')).toBe('2026-11-26 18:42:05');
    expect(formatClock(null)).toBe('-');
    expect(zoneNow('Asia/Hong_Kong')).toBe('UTC+8');
    expect(zoneNow('UTC')).toBe('UTC');
  });
});
