import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatDuration, formatEnergy, formatPercent } from './format';

describe('formatBytes', () => {
  it('uses 1024 steps, one decimal under 10, integers otherwise', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.0 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1.5 * 1024 ** 3)).toBe('1.5 GB');
    expect(formatBytes(123456789)).toBe('118 MB');
    expect(formatBytes(12 * 1024 ** 4)).toBe('12 TB');
    expect(formatBytes(2048 * 1024 ** 4)).toBe('2048 TB');
    expect(formatBytes(1024 * 1024 - 1)).toBe('1.0 MB');
  });
  it('shows missing values as -', () => {
    expect(formatBytes(undefined)).toBe('-');
    expect(formatBytes(NaN)).toBe('-');
  });
});

describe('formatDuration', () => {
  const ms = (d: number, h: number, m: number, s = 0) => ((d * 24 + h) * 60 + m) * 60_000 + s * 1000;
  it('shows the 3 largest non-zero units in English', () => {
    expect(formatDuration(ms(2, 3, 4, 5), 'en-US')).toBe('2d 3h 4m');
    expect(formatDuration(ms(0, 1, 0, 5), 'en-US')).toBe('1h 5s');
    expect(formatDuration(ms(0, 0, 0, 59), 'en-US')).toBe('59s');
    expect(formatDuration(ms(2, 0, 4, 5), 'en-US')).toBe('2d 4m 5s');
    expect(formatDuration(0, 'en-US')).toBe('0s');
    expect(formatDuration(999, 'en-US')).toBe('0s');
  });
  it('speaks Chinese', () => {
    expect(formatDuration(ms(2, 3, 4, 5), 'zh-CN')).toBe('2天3小时4分');
    expect(formatDuration(0, 'zh-CN')).toBe('0秒');
  });
  it('takes a translate function', () => {
    const zh: Record<string, string> = { d: '天', h: '小时', m: '分', s: '秒' };
    const tZh = (k: string, o?: Record<string, unknown>) => `${String(o?.count)}${zh[k.slice(-1)]}`;
    expect(formatDuration(ms(2, 3, 4), tZh)).toBe('2天3小时4分');
    const tEn = (k: string, o?: Record<string, unknown>) => `${String(o?.count)}${k.slice(-1)}`;
    expect(formatDuration(ms(2, 3, 4), tEn)).toBe('2d 3h 4m');
  });
  it('shows missing or negative values as -', () => {
    expect(formatDuration(null)).toBe('-');
    expect(formatDuration(-5)).toBe('-');
  });
});

describe('formatEnergy', () => {
  it('switches Wh, kWh, MWh', () => {
    expect(formatEnergy(850, 'en-US')).toBe('850 Wh');
    expect(formatEnergy(1000, 'en-US')).toBe('1 kWh');
    expect(formatEnergy(240000, 'en-US')).toBe('240 kWh');
    expect(formatEnergy(1234567 - 1000000 + 1000, 'en-US')).toBe('235.6 kWh');
    expect(formatEnergy(999_960, 'en-US')).toBe('1 MWh');
    expect(formatEnergy(180_000_000, 'en-US')).toBe('180 MWh');
    expect(formatEnergy(2_400_000, 'en-US')).toBe('2.4 MWh');
    expect(formatEnergy(1_234_500_000_000, 'en-US')).toBe('1,234,500 MWh');
  });
  it('groups in the locale', () => {
    expect(formatEnergy(123_456_700_000, 'zh-CN')).toBe('123,456.7 MWh');
  });
});

describe('formatPercent and formatCount', () => {
  it('formats shares', () => {
    expect(formatPercent(0.987, 'en-US')).toBe('98.7%');
    expect(formatPercent(1, 'en-US')).toBe('100%');
    expect(formatPercent(0, 'zh-CN')).toBe('0%');
    expect(formatPercent(null)).toBe('-');
  });
  it('groups counts', () => {
    expect(formatCount(12345, 'en-US')).toBe('12,345');
    expect(formatCount(0, 'en-US')).toBe('0');
    expect(formatCount(undefined)).toBe('-');
  });
});
