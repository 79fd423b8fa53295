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

/** Unix ms, ISO string or Date → display text; empty values → '-'. */
export function formatTime(value: number | string | Date | null | undefined, tz: string = zone): string {
  if (value === null || value === undefined || value === '' || value === 0) return '-';
  const d = dayjs(value);
  if (!d.isValid()) return '-';
  return d.tz(tz).format(TIME_FORMAT);
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
