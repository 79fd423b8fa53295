/**
 * Shaping of the access statistics for the OpenAPI screens (docs/openapi-console.md): ranges of
 * whole days in the console's time zone (the statistics' days, internal/openapi/reqlog.go
 * DayStart), daily buckets for the stacked bars, and the ECharts options of the per-endpoint
 * charts. The server computes every figure (percentiles from its histogram); nothing here
 * estimates. Dates are counted on the calendar (UTC arithmetic on the wall date) and only their
 * midnights are read in the zone, so a 23- or 25-hour DST day stays one whole day.
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import { getTimeZone } from '../../../utils/time';

dayjs.extend(utc);
dayjs.extend(timezone);

export const DAY_MS = 86_400_000;
/** The longest range the statistics call accepts (days). */
export const MAX_DAYS = 92;
/** The range shown first: the last 7 days, today included. */
export const DEFAULT_DAYS = 7;

/** A range of whole days in the console's time zone, both ends included, as YYYY-MM-DD. */
export interface DayRange {
  from: string;
  to: string;
}

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;
const FORMAT = 'YYYY-MM-DD';

/** Days since 1970-01-01 of a calendar date; NaN when it is not one ("2025-02-30"). */
function dayNumber(ymd: string): number {
  const m = YMD.exec(ymd);
  if (!m) return NaN;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === ymd ? ms / DAY_MS : NaN;
}

/** The date `days` after a date (calendar arithmetic: no DST involved); '' when it is not a date. */
export function addDays(ymd: string, days: number): string {
  const n = dayNumber(ymd);
  return Number.isNaN(n) ? '' : new Date((n + days) * DAY_MS).toISOString().slice(0, 10);
}

/** The date (YYYY-MM-DD) of an instant in the zone. */
export function localDate(ms: number, tz: string = getTimeZone()): string {
  return dayjs(ms).tz(tz).format(FORMAT);
}

/** The first instant (unix ms) of a date in the zone, its midnight; NaN when it is not a date. */
export function localMidnight(ymd: string, tz: string = getTimeZone()): number {
  if (Number.isNaN(dayNumber(ymd))) return NaN;
  return dayjs.tz(`${ymd} 00:00:00`, tz).valueOf();
}

/** The last `days` days up to today in the zone. */
export function lastDays(days = DEFAULT_DAYS, now = Date.now(), tz: string = getTimeZone()): DayRange {
  const to = localDate(now, tz);
  return { from: addDays(to, -(days - 1)), to };
}

/** [start, end) (unix ms) of a range: from the midnight of its first day to the midnight after its last, in the zone. */
export function rangeMs(r: DayRange, tz: string = getTimeZone()): [number, number] {
  return [localMidnight(r.from, tz), localMidnight(addDays(r.to, 1), tz)];
}

/** How many days a range holds (calendar days: a DST day counts as one); NaN when an end is not a date. */
export function rangeDays(r: DayRange): number {
  return dayNumber(r.to) - dayNumber(r.from) + 1;
}

/**
 * Whether the statistics call accepts a range: dates in order, at most MAX_DAYS days, none after
 * today in the zone. The server also bounds end − start by MAX_DAYS × 24 hours
 * (internal/openapi/logquery.go Stats), so 92 days holding a 25-hour day are one hour too long.
 */
export function validRange(r: DayRange, now = Date.now(), tz: string = getTimeZone()): boolean {
  const days = rangeDays(r);
  if (!(days >= 1 && days <= MAX_DAYS) || r.to > localDate(now, tz)) return false;
  const [s, e] = rangeMs(r, tz);
  return e - s <= MAX_DAYS * DAY_MS;
}

/** A range from the URL, or the default when missing, not dates, reversed, after today or longer than MAX_DAYS. */
export function readRange(from: string | null, to: string | null, now = Date.now(), tz: string = getTimeZone()): DayRange {
  if (from && to && validRange({ from, to }, now, tz)) return { from, to };
  return lastDays(DEFAULT_DAYS, now, tz);
}

/** A day's bar: successful calls and errors, stacked (BarChart's buckets). */
export interface DayBucket {
  time: number;
  ok: number;
  errors: number;
}

export function dailyBuckets(days: readonly { day: number; calls: number; errors: number }[] | undefined): DayBucket[] {
  return (days ?? []).map((d) => ({ time: d.day, ok: Math.max(0, d.calls - d.errors), errors: d.errors }));
}

/**
 * The label of a day of the statistics (`days[].day`, its start in unix ms): its date in the zone,
 * read at noon. Where a DST change skips 00:00 (America/Santiago), the server's day starts at
 * 23:00 of the day before (Go's time.Date), and still reads as its own date.
 */
export function dayLabel(day: number, tz: string = getTimeZone()): string {
  return localDate(day + DAY_MS / 2, tz).slice(5);
}

/** Calls per day: successful calls and errors stacked, the days labelled by their date in the zone (MM-DD). */
export function dailyOption(buckets: readonly DayBucket[], names: { ok: string; errors: string }, tz: string = getTimeZone()) {
  return {
    grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0 },
    xAxis: { type: 'category', data: buckets.map((b) => dayLabel(b.time, tz)), axisLabel: { hideOverlap: true }, axisTick: { alignWithLabel: true } },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: names.ok, type: 'bar', stack: 'calls', barMaxWidth: 32, itemStyle: { color: OK_COLOR }, data: buckets.map((b) => b.ok) },
      { name: names.errors, type: 'bar', stack: 'calls', barMaxWidth: 32, itemStyle: { color: ERROR_COLOR }, data: buckets.map((b) => b.errors) },
    ],
  };
}

/** Whether a range had no call at all (the charts then say so instead of drawing empty axes). */
export function noCalls(days: readonly { calls: number }[] | undefined): boolean {
  return !(days ?? []).some((d) => d.calls > 0);
}

/** errors / calls, or null without calls. */
export function errorRate(f: { calls: number; errors: number } | undefined): number | null {
  return f && f.calls > 0 ? f.errors / f.calls : null;
}

/** An endpoint without the common prefix, for axis labels: "GET /openapi/v1/devices" → "GET /devices". */
export function shortEndpoint(endpoint: string): string {
  return endpoint.replace(' /openapi/v1/', ' /');
}

/** Milliseconds with at most one decimal (locale grouping). */
export function formatMs(v: number | null | undefined, locale?: string): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '-';
  return new Intl.NumberFormat(locale, { maximumFractionDigits: v < 10 ? 2 : 1 }).format(v);
}

interface EndpointFigures {
  endpoint: string;
  calls: number;
  errors: number;
  p50: number;
  p90: number;
  p99: number;
}

/** Height of a horizontal bar chart of n endpoints. */
export function endpointChartHeight(n: number): number {
  return Math.max(160, 64 + n * 36);
}

// the colours of the console's charts (components/charts/theme.ts), named here: importing the
// theme module would give this page's chunk graph one more shared chunk on the home page's
// first load (scripts/budget.mjs)
export const OK_COLOR = '#1677ff';
export const ERROR_COLOR = '#ff7875';
const PERCENTILE_COLORS = ['#5470c6', '#fac858', '#ee6666'];

function horizontal(endpoints: readonly EndpointFigures[]) {
  // a category axis draws its first entry at the bottom: reverse, so the most called is on top
  const rows = [...endpoints].reverse();
  return {
    rows,
    base: {
      grid: { left: 8, right: 24, top: 36, bottom: 8, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { top: 0 },
      yAxis: { type: 'category', data: rows.map((e) => shortEndpoint(e.endpoint)), axisLabel: { width: 220, overflow: 'truncate' } },
    },
  };
}

/** Calls per endpoint: successful calls and errors stacked, most called on top. */
export function endpointCallsOption(endpoints: readonly EndpointFigures[], names: { ok: string; errors: string }) {
  const { rows, base } = horizontal(endpoints);
  return {
    ...base,
    xAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: names.ok, type: 'bar', stack: 'calls', barMaxWidth: 24, itemStyle: { color: OK_COLOR }, data: rows.map((e) => Math.max(0, e.calls - e.errors)) },
      { name: names.errors, type: 'bar', stack: 'calls', barMaxWidth: 24, itemStyle: { color: ERROR_COLOR }, data: rows.map((e) => e.errors) },
    ],
  };
}

/** p50, p90 and p99 latency (ms) per endpoint, side by side. */
export function latencyOption(endpoints: readonly EndpointFigures[], names: { p50: string; p90: string; p99: string }) {
  const { rows, base } = horizontal(endpoints);
  const keys = ['p50', 'p90', 'p99'] as const;
  return {
    ...base,
    xAxis: { type: 'value' },
    series: keys.map((k, i) => ({ name: names[k], type: 'bar', barMaxWidth: 10, itemStyle: { color: PERCENTILE_COLORS[i] }, data: rows.map((e) => e[k]) })),
  };
}
