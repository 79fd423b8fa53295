/** The one time-display helper: YYYY-MM-DD HH:mm:ss in the configured zone. */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';

dayjs.extend(utc);
dayjs.extend(timezone);

export const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const DEFAULT_TIME_ZONE = 'Asia/Hong_Kong';
let zone = DEFAULT_TIME_ZONE;

export function setTimeZone(tz: string | undefined | null): void {
  if (!tz) return;
  try {
    dayjs().tz(tz);
    zone = tz;
  } catch {
    /* unknown zone: keep the previous one */
  }
}

export function getTimeZone(): string {
  return zone;
}

/**
 * The zone of a shown time, as its offset from UTC at that instant (issue 30 "times show the
 * zone"): "UTC+8", "UTC+5:30", "UTC-3", "UTC". The same in every language, and right across a
 * daylight-saving change, which an abbreviation ("HKT") is not in every browser.
 */
export function zoneLabel(offsetMinutes: number): string {
  if (offsetMinutes === 0) return 'UTC';
  const sign = offsetMinutes > 0 ? '+' : '-';
  const m = Math.abs(offsetMinutes);
  const h = Math.floor(m / 60);
  const rest = m % 60;
  return `UTC${sign}${h}${rest ? `:${String(rest).padStart(2, '0')}` : ''}`;
}

/**
 * Unix ms, ISO string or Date → display text in the configured zone, the zone named after it
 * ("2026-11-26 18:42:05 UTC+8"); empty values → '-'. The one convention of the console: every
 * time on a table or a detail carries its zone.
 */
export function formatTime(value: number | string | Date | null | undefined, tz: string = zone): string {
  if (value === null || value === undefined || value === '' || value === 0) return '-';
  const d = dayjs(value);
  if (!d.isValid()) return '-';
  const local = d.tz(tz);
  return `${local.format(TIME_FORMAT)} ${zoneLabel(local.utcOffset())}`;
}

/**
 * The time alone, for a dense table whose column header names the zone once (zoneNow): the
 * device list, where a zone in every cell would push key columns out of view at 1440 px.
 */
export function formatClock(value: number | string | Date | null | undefined, tz: string = zone): string {
  const s = formatTime(value, tz);
  return s === '-' ? s : s.slice(0, TIME_FORMAT.length);
}

/** The configured zone's label now ("UTC+8"), for a column header over formatClock cells. */
export function zoneNow(tz: string = zone): string {
  return zoneLabel(dayjs().tz(tz).utcOffset());
}

/** The same instant in UTC, for a tooltip beside a time shown in the user's zone (protocol frames). */
export function formatUTC(value: number | string | Date | null | undefined): string {
  return formatTime(value, 'UTC');
}

/** An instant as the configured zone's wall clock, for a date picker to show. */
export function toPicker(ms: number): dayjs.Dayjs {
  return dayjs.tz(dayjs(ms).tz(zone).format(TIME_FORMAT), TIME_FORMAT, dayjs.tz.guess());
}

/** A picked wall clock read in the configured zone (not the browser's), as unix ms. */
export function fromPicker(d: { format: (f: string) => string }): number {
  return dayjs.tz(d.format(TIME_FORMAT), TIME_FORMAT, zone).valueOf();
}

/** The time check's window: 30 minutes (docs/decisions.md#time-check). */
export const TIME_CHECK_MS = 30 * 60 * 1000;

/**
 * The time check: true when `target` is in the past or less than 30 minutes ahead of `now`
 * (exactly 30 minutes ahead still counts as too soon). Used to refuse a schedule that would
 * start or end before anyone could act on it (a reservation's expiry).
 */
export function isPastOrWithin30Min(target: number | Date | { valueOf(): number }, now: number = Date.now()): boolean {
  return target.valueOf() <= now + TIME_CHECK_MS;
}
