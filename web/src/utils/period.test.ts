import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { bucketEnd, bucketLabel, bucketText, currentPeriod, customRange, MAX_RANGE_DAYS, periodRange, rangeText, spansDays, stepOf } from './period';

const HK = 'Asia/Hong_Kong';
const NY = 'America/New_York';
const at = (text: string, tz: string) => dayjs.tz(text, tz).valueOf();

describe('periodRange', () => {
  const anchor = at('2025-11-26 15:30:00', HK); // a Wednesday
  it('aligns a day', () => {
    expect(periodRange('day', anchor, HK)).toEqual([at('2025-11-26 00:00:00', HK), at('2025-11-27 00:00:00', HK)]);
  });
  it('starts weeks on Monday', () => {
    expect(periodRange('week', anchor, HK)).toEqual([at('2025-11-24 00:00:00', HK), at('2025-12-01 00:00:00', HK)]);
    // a Sunday belongs to the week that started the Monday before
    expect(periodRange('week', at('2025-11-30 23:00:00', HK), HK)[0]).toBe(at('2025-11-24 00:00:00', HK));
    expect(periodRange('week', at('2025-12-01 00:00:00', HK), HK)[0]).toBe(at('2025-12-01 00:00:00', HK));
  });
  it('aligns months and years, over the year end', () => {
    expect(periodRange('month', anchor, HK)).toEqual([at('2025-11-01 00:00:00', HK), at('2025-12-01 00:00:00', HK)]);
    expect(periodRange('month', at('2025-12-31 23:59:59', HK), HK)).toEqual([at('2025-12-01 00:00:00', HK), at('2026-01-01 00:00:00', HK)]);
    expect(periodRange('year', anchor, HK)).toEqual([at('2025-01-01 00:00:00', HK), at('2026-01-01 00:00:00', HK)]);
  });
  it('uses the zone, not the browser', () => {
    // 2025-11-26 02:00 in Hong Kong is still the 25th in New York
    const t = at('2025-11-26 02:00:00', HK);
    expect(periodRange('day', t, NY)).toEqual([at('2025-11-25 00:00:00', NY), at('2025-11-26 00:00:00', NY)]);
  });
  it('keeps DST days whole', () => {
    const [s, e] = periodRange('day', at('2025-03-09 12:00:00', NY), NY);
    expect(e - s).toBe(23 * 3600_000);
    const [s2, e2] = periodRange('week', at('2025-11-05 12:00:00', NY), NY);
    expect(s2).toBe(at('2025-11-03 00:00:00', NY));
    expect(e2).toBe(at('2025-11-10 00:00:00', NY));
    const [s3, e3] = periodRange('day', at('2025-11-02 12:00:00', NY), NY);
    expect(e3 - s3).toBe(25 * 3600_000);
  });
});

describe('customRange', () => {
  it('takes inclusive days', () => {
    expect(customRange('2025-11-01', '2025-11-03', HK)).toEqual([at('2025-11-01 00:00:00', HK), at('2025-11-04 00:00:00', HK)]);
    expect(customRange('2025-11-03', '2025-11-01', HK)).toEqual([at('2025-11-01 00:00:00', HK), at('2025-11-04 00:00:00', HK)]);
    expect(customRange(dayjs('2025-11-01'), dayjs('2025-11-01'), HK)).toEqual([at('2025-11-01 00:00:00', HK), at('2025-11-02 00:00:00', HK)]);
  });
  it('cuts at MAX_RANGE_DAYS', () => {
    const [s, e] = customRange('2024-01-01', '2025-12-31', 'UTC');
    expect(s).toBe(Date.UTC(2024, 0, 1));
    expect((e - s) / 86_400_000).toBe(MAX_RANGE_DAYS);
  });
});

describe('stepOf', () => {
  const D = 86_400_000;
  it('follows the server rule', () => {
    expect(stepOf(0, D)).toBe('hour');
    expect(stepOf(0, 2 * D)).toBe('hour');
    expect(stepOf(0, 2 * D + 1)).toBe('day');
    expect(stepOf(0, 92 * D)).toBe('day');
    expect(stepOf(0, 92 * D + 1)).toBe('month');
    const [s, e] = periodRange('year', Date.UTC(2025, 5, 1), 'UTC');
    expect(stepOf(s, e)).toBe('month');
    const [ms, me] = periodRange('month', Date.UTC(2025, 5, 1), 'UTC');
    expect(stepOf(ms, me)).toBe('day');
  });
});

describe('buckets', () => {
  it('labels buckets in the zone', () => {
    const t = at('2025-11-26 15:00:00', HK);
    expect(bucketLabel(t, 'hour', HK)).toBe('15:00');
    expect(bucketLabel(t, 'hour', HK, 'en-US', true)).toBe('11-26 15:00');
    expect(bucketLabel(t, 'day', HK)).toBe('11-26');
    expect(bucketLabel(t, 'month', HK)).toBe('2025-11');
    expect(bucketLabel(t, 'hour', NY)).toBe('02:00');
    expect(bucketText(t, 'hour', HK)).toBe('2025-11-26 15:00');
    expect(bucketText(t, 'day', HK)).toBe('2025-11-26');
    expect(bucketText(t, 'month', HK)).toBe('2025-11');
  });
  it('ends buckets at the next one', () => {
    const t = at('2025-11-26 00:00:00', HK);
    expect(bucketEnd(t, 'hour', HK)).toBe(t + 3600_000);
    expect(bucketEnd(t, 'day', HK)).toBe(at('2025-11-27 00:00:00', HK));
    expect(bucketEnd(at('2025-12-01 00:00:00', HK), 'month', HK)).toBe(at('2026-01-01 00:00:00', HK));
    expect(bucketEnd(at('2025-03-09 00:00:00', NY), 'day', NY) - at('2025-03-09 00:00:00', NY)).toBe(23 * 3600_000);
  });
  it('tells when hour labels need the date', () => {
    const [s, e] = periodRange('day', at('2025-11-26 12:00:00', HK), HK);
    expect(spansDays(s, e, HK)).toBe(false);
    expect(spansDays(s, e + 86_400_000, HK)).toBe(true);
  });
});

describe('helpers', () => {
  it('defaults to this month', () => {
    const now = at('2025-11-26 12:00:00', HK);
    expect(currentPeriod(undefined, now, HK)).toEqual({ period: 'month', start: at('2025-11-01 00:00:00', HK), end: at('2025-12-01 00:00:00', HK) });
  });
  it('writes a range', () => {
    expect(rangeText(at('2025-11-24 00:00:00', HK), at('2025-12-01 00:00:00', HK), HK)).toBe('2025-11-24 ~ 2025-11-30');
    expect(rangeText(at('2025-11-24 00:00:00', HK), at('2025-11-25 00:00:00', HK), HK)).toBe('2025-11-24');
  });
});
