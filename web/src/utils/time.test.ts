import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { formatTime, fromPicker, setTimeZone, toPicker } from './time';

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
