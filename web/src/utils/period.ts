/**
 * Calendar periods of the dashboards (docs/dashboards.md): a day, week (from Monday), month or
 * year in the configured time zone, or custom whole days; ranges are [start, end) in unix ms.
 * Their buckets follow the server's rule: hours up to 2 days, days up to 92, months beyond.
 * Wall-clock dates are computed in UTC and read back in the zone, so DST days stay whole.
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import { getTimeZone } from './time';

dayjs.extend(utc);
dayjs.extend(timezone);

export type Period = 'day' | 'week' | 'month' | 'year' | 'custom';
export const PERIODS: readonly Period[] = ['day', 'week', 'month', 'year', 'custom'];
export type Step = 'hour' | 'day' | 'month';

/** The longest range the server accepts, in days. */
export const MAX_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A calendar date (month 1-12). */
interface Ymd {
  y: number;
  m: number;
  d: number;
}

function dateIn(ms: number, tz: string): Ymd {
  const t = dayjs(ms).tz(tz);
  return { y: t.year(), m: t.month() + 1, d: t.date() };
}

/** The date `days` after (UTC arithmetic on the wall date: no DST involved). */
function addDays(a: Ymd, days: number): Ymd {
  const t = dayjs.utc(Date.UTC(a.y, a.m - 1, a.d)).add(days, 'day');
  return { y: t.year(), m: t.month() + 1, d: t.date() };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Midnight of a date in the zone (normalising day/month overflow: Jan 32 = Feb 1). */
export function midnight(a: Ymd, tz: string): number {
  const t = dayjs.utc(Date.UTC(a.y, a.m - 1, a.d));
  return dayjs.tz(`${pad(t.year(), 4)}-${pad(t.month() + 1)}-${pad(t.date())} 00:00:00`, tz).valueOf();
}

/** [start, end) of the calendar period holding `anchorMs` in `tz`; 'custom' is taken as the anchor's day. */
export function periodRange(period: Period, anchorMs: number, tz: string = getTimeZone()): [number, number] {
  const a = dateIn(anchorMs, tz);
  switch (period) {
    case 'week': {
      const weekday = new Date(Date.UTC(a.y, a.m - 1, a.d)).getUTCDay(); // 0 Sunday
      const monday = addDays(a, -((weekday + 6) % 7));
      return [midnight(monday, tz), midnight(addDays(monday, 7), tz)];
    }
    case 'month':
      return [midnight({ y: a.y, m: a.m, d: 1 }, tz), midnight({ y: a.y, m: a.m + 1, d: 1 }, tz)];
    case 'year':
      return [midnight({ y: a.y, m: 1, d: 1 }, tz), midnight({ y: a.y + 1, m: 1, d: 1 }, tz)];
    default:
      return [midnight(a, tz), midnight(addDays(a, 1), tz)];
  }
}

/** A day given as "YYYY-MM-DD", a wall-clock date object (a picker's dayjs) or an instant (unix ms, read in tz). */
export type DayInput = string | number | { format(f: string): string };

function readDay(v: DayInput, tz: string): Ymd {
  if (typeof v === 'number') return dateIn(v, tz);
  const text = typeof v === 'string' ? v : v.format('YYYY-MM-DD');
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(text);
  if (!m) throw new RangeError(`not a day: ${text}`);
  return { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
}

function dayNumber(a: Ymd): number {
  return Math.round(Date.UTC(a.y, a.m - 1, a.d) / DAY_MS);
}

/**
 * Whole days from `startDay` to `endDay` inclusive: [midnight of the first, midnight of the day
 * after the last). Days in the wrong order are swapped; more than MAX_RANGE_DAYS days are cut
 * to the first MAX_RANGE_DAYS.
 */
export function customRange(startDay: DayInput, endDay: DayInput, tz: string = getTimeZone()): [number, number] {
  let a = readDay(startDay, tz);
  let b = readDay(endDay, tz);
  if (dayNumber(b) < dayNumber(a)) [a, b] = [b, a];
  const days = Math.min(dayNumber(b) - dayNumber(a) + 1, MAX_RANGE_DAYS);
  return [midnight(a, tz), midnight(addDays(a, days), tz)];
}

/** Days a range spans in `tz` (whole days; a DST day counts as one). */
export function rangeDays(start: number, end: number, tz: string = getTimeZone()): number {
  return dayNumber(dateIn(end, tz)) - dayNumber(dateIn(start, tz));
}

/** The bucket step of a range (the server's rule): hour up to 2 days, day up to 92 days, month beyond. */
export function stepOf(start: number, end: number): Step {
  const span = end - start;
  if (span <= 2 * DAY_MS) return 'hour';
  if (span <= 92 * DAY_MS) return 'day';
  return 'month';
}

/** The start of the bucket after the one starting at `time`. */
export function bucketEnd(time: number, step: Step, tz: string = getTimeZone()): number {
  if (step === 'hour') return time + HOUR_MS;
  const a = dateIn(time, tz);
  if (step === 'day') return midnight(addDays(a, 1), tz);
  return midnight({ y: a.y, m: a.m + 1, d: 1 }, tz);
}

/**
 * The label of a bucket: hour "HH:00" (or "MM-DD HH:00" when the range spans more than one
 * day: `multiDay`), day "MM-DD", month "YYYY-MM", in the zone. `locale` is reserved for
 * language-specific forms; the numeric forms read the same in en-US and zh-CN.
 */
export function bucketLabel(time: number, step: Step, tz: string = getTimeZone(), locale?: string, multiDay = false): string {
  void locale;
  const t = dayjs(time).tz(tz);
  if (step === 'month') return t.format('YYYY-MM');
  if (step === 'day') return t.format('MM-DD');
  return t.format(multiDay ? 'MM-DD HH:mm' : 'HH:mm');
}

const BUCKET_TEXT: Record<Step, string> = { hour: 'YYYY-MM-DD HH:mm', day: 'YYYY-MM-DD', month: 'YYYY-MM' };

/** A bucket in full (tooltips, titles): "2025-11-26 15:00", "2025-11-26", "2025-11". */
export function bucketText(time: number, step: Step, tz: string = getTimeZone()): string {
  return dayjs(time).tz(tz).format(BUCKET_TEXT[step]);
}

/** Whether buckets of a range need the date in their hour labels (the range covers more than one day). */
export function spansDays(start: number, end: number, tz: string = getTimeZone()): boolean {
  return rangeDays(start, end - 1, tz) >= 1;
}

/** A period and its range, as the period picker reports it. */
export interface PeriodValue {
  period: Period;
  start: number;
  end: number;
}

/** The period holding `now` (default: this month). */
export function currentPeriod(period: Exclude<Period, 'custom'> = 'month', now = Date.now(), tz: string = getTimeZone()): PeriodValue {
  const [start, end] = periodRange(period, now, tz);
  return { period, start, end };
}

/** The text of a range's first and last day: "2025-11-24 ~ 2025-11-30" (one day: just the day). */
export function rangeText(start: number, end: number, tz: string = getTimeZone()): string {
  const a = dayjs(start).tz(tz).format('YYYY-MM-DD');
  const b = dayjs(end - 1).tz(tz).format('YYYY-MM-DD');
  return a === b ? a : `${a} ~ ${b}`;
}
