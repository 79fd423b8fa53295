/**
 * How the sessions screens write energy, power and time (docs/sessions.md): the server keeps
 * Wh and W (the register's unit as stored), the console shows kWh and kW with their unit, and a
 * session's duration as h:mm:ss like the xlsx export.
 */

const kFormat = (locale: string, digits: number) => new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Wh → "12.50 kWh" (two decimals: 10 Wh steps); '-' when unknown. */
export function formatKWh(wh: number | null | undefined, locale = 'en-US'): string {
  if (wh === null || wh === undefined || !Number.isFinite(wh)) return '-';
  return `${kFormat(locale, 2).format(wh / 1000)} kWh`;
}

/** W → "7.2 kW" (one decimal); '-' when unknown. */
export function formatKW(w: number | null | undefined, locale = 'en-US'): string {
  if (w === null || w === undefined || !Number.isFinite(w)) return '-';
  return `${kFormat(locale, 1).format(w / 1000)} kW`;
}

/** A duration in ms as h:mm:ss (hours not wrapped at 24); '-' for a negative or unknown one. */
export function formatSessionDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '-';
  const s = Math.floor(ms / 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}

/** A session's duration: to its stop, or to `now` while it charges. */
export function sessionDuration(s: { startedAt: number; stoppedAt: number }, now = Date.now()): number {
  return (s.stoppedAt > 0 ? s.stoppedAt : now) - s.startedAt;
}

/** The quick ranges of the start-time filter: [start, end) in unix ms from `now`. */
export function quickRanges(now: Date): Record<'today' | '7d' | '30d' | 'month', [number, number]> {
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const end = now.getTime() + 60_000;
  return {
    today: [day, end],
    '7d': [now.getTime() - 7 * 86_400_000, end],
    '30d': [now.getTime() - 30 * 86_400_000, end],
    month: [new Date(now.getFullYear(), now.getMonth(), 1).getTime(), end],
  };
}
