import { afterEach, describe, expect, it } from 'vitest';
import { getTimeZone, setTimeZone } from '../../../utils/time';
import {
  DAY_MS,
  addDays,
  dailyBuckets,
  dailyOption,
  dayLabel,
  endpointCallsOption,
  errorRate,
  formatMs,
  lastDays,
  latencyOption,
  localMidnight,
  noCalls,
  rangeDays,
  rangeMs,
  readRange,
  shortEndpoint,
  validRange,
} from './shape';

const HK = 'Asia/Hong_Kong';
const NY = 'America/New_York';
const HOUR_MS = 3_600_000;
// 10 March 2025, 23:30 UTC: 11 March 07:30 in Hong Kong, 10 March 19:30 in New York (EDT since
// 9 March, a 23-hour day there)
const NOW = Date.UTC(2025, 2, 10, 23, 30);
// 1 December 2025: after New York's 25-hour day (2 November)
const WINTER = Date.UTC(2025, 11, 1, 12);

describe('day ranges in the console time zone', () => {
  const initialZone = getTimeZone();
  afterEach(() => setTimeZone(initialZone));

  const cases = [
    {
      name: 'Hong Kong: the last 7 days end with today there (already 11 March)',
      tz: HK,
      range: { from: '2025-03-05', to: '2025-03-11' },
      ms: [Date.UTC(2025, 2, 4, 16), Date.UTC(2025, 2, 11, 16)],
    },
    {
      name: 'New York: the last 7 days end with 10 March and hold the 23-hour day',
      tz: NY,
      range: { from: '2025-03-04', to: '2025-03-10' },
      ms: [Date.UTC(2025, 2, 4, 5), Date.UTC(2025, 2, 11, 4)],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(lastDays(7, NOW, c.tz)).toEqual(c.range);
      expect(rangeMs(c.range, c.tz)).toEqual(c.ms);
      expect(rangeDays(c.range)).toBe(7);
      expect(readRange(null, null, NOW, c.tz)).toEqual(c.range);
    });
  }

  it('takes the console time zone when none is given (default Hong Kong, then the configured one)', () => {
    setTimeZone(HK);
    expect(lastDays(7, NOW)).toEqual({ from: '2025-03-05', to: '2025-03-11' });
    setTimeZone(NY);
    expect(lastDays(7, NOW)).toEqual({ from: '2025-03-04', to: '2025-03-10' });
    expect(rangeMs({ from: '2025-03-09', to: '2025-03-09' })).toEqual([Date.UTC(2025, 2, 9, 5), Date.UTC(2025, 2, 10, 4)]);
  });

  it('New York 2025-03-09 (clocks forward) is one day of 23 hours', () => {
    const [s, e] = rangeMs({ from: '2025-03-09', to: '2025-03-09' }, NY);
    expect([s, e]).toEqual([Date.UTC(2025, 2, 9, 5), Date.UTC(2025, 2, 10, 4)]);
    expect(e - s).toBe(23 * HOUR_MS);
    expect(rangeDays({ from: '2025-03-09', to: '2025-03-09' })).toBe(1);
    // consecutive days meet at midnight: the next day starts where this one ends
    expect(rangeMs({ from: '2025-03-10', to: '2025-03-10' }, NY)[0]).toBe(e);
  });

  it('New York 2025-11-02 (clocks back) is one day of 25 hours', () => {
    const [s, e] = rangeMs({ from: '2025-11-02', to: '2025-11-02' }, NY);
    expect([s, e]).toEqual([Date.UTC(2025, 10, 2, 4), Date.UTC(2025, 10, 3, 5)]);
    expect(e - s).toBe(25 * HOUR_MS);
  });

  it('counts dates on the calendar across months, leap days and years', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-02-28', 1)).toBe('2025-03-01');
    expect(addDays('2025-01-03', -7)).toBe('2024-12-27');
    expect(lastDays(7, Date.UTC(2025, 0, 2, 17), HK)).toEqual({ from: '2024-12-28', to: '2025-01-03' });
    expect(addDays('2025-02-30', 1)).toBe('');
    expect(localMidnight('nope', HK)).toBeNaN();
    expect(localMidnight('2025-02-30', HK)).toBeNaN();
  });

  const urlCases: { name: string; tz: string; now: number; from: string | null; to: string | null; ok: boolean }[] = [
    { name: 'a month', tz: HK, now: NOW, from: '2025-01-01', to: '2025-01-31', ok: true },
    { name: 'one day', tz: HK, now: NOW, from: '2025-01-01', to: '2025-01-01', ok: true },
    { name: 'today in Hong Kong', tz: HK, now: NOW, from: '2025-03-11', to: '2025-03-11', ok: true },
    { name: 'tomorrow in New York (today in Hong Kong)', tz: NY, now: NOW, from: '2025-03-05', to: '2025-03-11', ok: false },
    { name: 'after today', tz: HK, now: NOW, from: '2025-03-05', to: '2025-03-12', ok: false },
    { name: 'a missing end', tz: HK, now: NOW, from: null, to: '2025-01-31', ok: false },
    { name: 'not a date', tz: HK, now: NOW, from: '2025-02-30', to: '2025-03-01', ok: false },
    { name: 'reversed', tz: HK, now: NOW, from: '2025-03-05', to: '2025-03-01', ok: false },
    { name: '92 days (2024 is a leap year)', tz: HK, now: NOW, from: '2024-01-01', to: '2024-04-01', ok: true },
    { name: '93 days', tz: HK, now: NOW, from: '2024-01-01', to: '2024-04-02', ok: false },
    { name: '92 days in New York with the 23-hour day', tz: NY, now: NOW, from: '2024-12-09', to: '2025-03-10', ok: true },
    // the server bounds end - start by 92 × 24 h: 92 days with a 25-hour day are refused there
    { name: '92 days in New York with the 25-hour day', tz: NY, now: WINTER, from: '2025-08-15', to: '2025-11-14', ok: false },
    { name: '91 days in New York with the 25-hour day', tz: NY, now: WINTER, from: '2025-08-16', to: '2025-11-14', ok: true },
  ];
  for (const c of urlCases) {
    it(`reads a range from the URL: ${c.name} ${c.ok ? 'is kept' : 'falls back to the last 7 days'}`, () => {
      const want = c.ok ? { from: c.from, to: c.to } : lastDays(7, c.now, c.tz);
      expect(readRange(c.from, c.to, c.now, c.tz)).toEqual(want);
      if (c.from && c.to) expect(validRange({ from: c.from, to: c.to }, c.now, c.tz)).toBe(c.ok);
    });
  }

  it('sends the statistics call at most 92 × 24 hours (the server check)', () => {
    const [s, e] = rangeMs({ from: '2024-12-09', to: '2025-03-10' }, NY);
    expect(e - s).toBe(92 * DAY_MS - HOUR_MS);
    const [s2, e2] = rangeMs({ from: '2025-08-15', to: '2025-11-14' }, NY);
    expect(e2 - s2).toBe(92 * DAY_MS + HOUR_MS);
  });
});

describe('series', () => {
  it('stacks successful calls and errors per day', () => {
    expect(
      dailyBuckets([
        { day: 1, calls: 10, errors: 1 },
        { day: 2, calls: 0, errors: 0 },
      ]),
    ).toEqual([
      { time: 1, ok: 9, errors: 1 },
      { time: 2, ok: 0, errors: 0 },
    ]);
    expect(dailyBuckets(undefined)).toEqual([]);
  });

  it('labels the days by their date in Hong Kong (a UTC reading would say a day earlier)', () => {
    const o = dailyOption(
      [
        { time: Date.UTC(2025, 2, 8, 16), ok: 3, errors: 0 },
        { time: Date.UTC(2025, 2, 9, 16), ok: 9, errors: 1 },
      ],
      { ok: 'ok', errors: 'errors' },
      HK,
    );
    expect(o.xAxis.data).toEqual(['03-09', '03-10']);
    expect(o.series.map((s) => [s.name, s.stack, s.data])).toEqual([
      ['ok', 'calls', [3, 9]],
      ['errors', 'calls', [0, 1]],
    ]);
    expect(noCalls([{ calls: 0 }, { calls: 0 }])).toBe(true);
    expect(noCalls([{ calls: 0 }, { calls: 2 }])).toBe(false);
    expect(noCalls(undefined)).toBe(true);
  });

  it('labels New York days around the 23-hour day by their date there', () => {
    // the server's days: midnights in New York, 24, 23 and 24 hours apart
    const days = [Date.UTC(2025, 2, 8, 5), Date.UTC(2025, 2, 9, 5), Date.UTC(2025, 2, 10, 4)];
    expect(['2025-03-08', '2025-03-09', '2025-03-10'].map((d) => localMidnight(d, NY))).toEqual(days);
    const o = dailyOption(days.map((time) => ({ time, ok: 1, errors: 0 })), { ok: 'ok', errors: 'errors' }, NY);
    expect(o.xAxis.data).toEqual(['03-08', '03-09', '03-10']);
  });

  it('labels a day that the server starts at 23:00 of the day before (no 00:00 in Santiago on 2024-09-08)', () => {
    // Go's time.Date gives 2024-09-07 23:00 -04 for a midnight the change skips
    expect(dayLabel(Date.UTC(2024, 8, 8, 3), 'America/Santiago')).toBe('09-08');
    expect(dayLabel(Date.UTC(2024, 8, 7, 4), 'America/Santiago')).toBe('09-07');
  });

  it('has an error rate only with calls', () => {
    expect(errorRate({ calls: 8, errors: 2 })).toBe(0.25);
    expect(errorRate({ calls: 0, errors: 0 })).toBeNull();
    expect(errorRate(undefined)).toBeNull();
  });

  const endpoints = [
    { endpoint: 'GET /openapi/v1/devices', calls: 10, errors: 1, p50: 13.75, p90: 375, p99: 487.5 },
    { endpoint: 'POST /openapi/v1/commands', calls: 2, errors: 1, p50: 75, p90: 95, p99: 99.5 },
  ];

  it('draws the most called endpoint on top, successful calls and errors stacked', () => {
    const o = endpointCallsOption(endpoints, { ok: 'ok', errors: 'errors' });
    expect(o.yAxis.data).toEqual(['POST /commands', 'GET /devices']);
    expect(o.series.map((s) => [s.name, s.stack, s.data])).toEqual([
      ['ok', 'calls', [1, 9]],
      ['errors', 'calls', [1, 1]],
    ]);
  });

  it('draws p50, p90 and p99 per endpoint as the server gave them', () => {
    const o = latencyOption(endpoints, { p50: 'p50', p90: 'p90', p99: 'p99' });
    expect(o.series.map((s) => [s.name, s.data])).toEqual([
      ['p50', [75, 13.75]],
      ['p90', [95, 375]],
      ['p99', [99.5, 487.5]],
    ]);
  });

  it('shortens endpoints and formats milliseconds', () => {
    expect(shortEndpoint('GET /openapi/v1/devices/status')).toBe('GET /devices/status');
    expect(formatMs(13.75, 'en-US')).toBe('13.8');
    expect(formatMs(1.234, 'en-US')).toBe('1.23');
    expect(formatMs(1234.5, 'en-US')).toBe('1,234.5');
    expect(formatMs(undefined)).toBe('-');
  });
});
