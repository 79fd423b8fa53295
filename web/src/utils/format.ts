/**
 * Display of dashboard figures: sizes, durations, energy, shares and counts, in the current
 * UI language (i18next's) unless a locale is given. Missing or non-finite values read "-".
 */
import i18next from 'i18next';

/** A translate function (i18next's `t`). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

function currentLocale(): string {
  return i18next.language || 'en-US';
}

function ok(n: number | null | undefined): n is number {
  return typeof n === 'number' && Number.isFinite(n);
}

function number(n: number, locale: string, maxFraction: number, minFraction = 0): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: maxFraction, minimumFractionDigits: minFraction }).format(n);
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Bytes in 1024 steps: "512 B", "1.5 GB" (one decimal under 10), "120 MB". */
export function formatBytes(n: number | null | undefined): string {
  if (!ok(n)) return '-';
  const sign = n < 0 ? '-' : '';
  let v = Math.abs(n);
  let i = 0;
  while (v >= 1024 && i < BYTE_UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  if (i === 0) return `${sign}${Math.round(v)} B`;
  // 1023.96 KB rounds to 1024: show it as the next unit
  if (Math.round(v) >= 1024 && i < BYTE_UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  const text = v < 9.95 ? v.toFixed(1) : String(Math.round(v));
  return `${sign}${text} ${BYTE_UNITS[i]}`;
}

const DURATION_UNITS = [
  { key: 'd', ms: 86_400_000 },
  { key: 'h', ms: 3_600_000 },
  { key: 'm', ms: 60_000 },
  { key: 's', ms: 1000 },
] as const;
type DurationUnit = (typeof DURATION_UNITS)[number]['key'];

const BUILT_IN: Record<string, Record<DurationUnit, string>> = {
  en: { d: 'd', h: 'h', m: 'm', s: 's' },
  zh: { d: '天', h: '小时', m: '分', s: '秒' },
};

/** Whether a text ends in a CJK character (such parts are joined without a space). */
const CJK_END = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;

/**
 * A duration as its (at most) 3 largest non-zero units: "2d 3h 4m" in English, "2天3小时4分" in
 * Chinese, "0s" / "0秒" for less than a second. `lang` is a locale ("zh-CN") or i18next's `t`,
 * whose keys `format.duration.{d,h,m,s}` ("{{count}}d") name the units; default: the UI language.
 */
export function formatDuration(ms: number | null | undefined, lang?: string | Translate): string {
  if (!ok(ms) || ms < 0) return '-';
  let unit: (u: DurationUnit, n: number) => string;
  if (typeof lang === 'function') unit = (u, n) => lang(`format.duration.${u}`, { count: n });
  else {
    const table = BUILT_IN[(lang ?? currentLocale()).slice(0, 2).toLowerCase()] ?? BUILT_IN.en;
    unit = (u, n) => `${n}${table[u]}`;
  }
  let rest = Math.floor(ms / 1000) * 1000;
  const parts: string[] = [];
  for (const u of DURATION_UNITS) {
    const n = Math.floor(rest / u.ms);
    rest -= n * u.ms;
    if (n > 0 && parts.length < 3) parts.push(unit(u.key, n));
  }
  if (!parts.length) return unit('s', 0);
  return parts.reduce((acc, p) => (CJK_END.test(acc) ? acc + p : `${acc} ${p}`));
}

/** Energy: "850 Wh", "1,234.5 kWh" (from 1,000 Wh, one decimal at most), "180.2 MWh" (from 1,000,000 Wh). */
export function formatEnergy(wh: number | null | undefined, locale = currentLocale()): string {
  if (!ok(wh)) return '-';
  const a = Math.abs(wh);
  if (a < 1000) return `${number(Math.round(wh), locale, 0)} Wh`;
  if (a < 1_000_000) {
    const kwh = wh / 1000;
    // 999,960 Wh would read "1,000 kWh": say 1 MWh instead
    if (Math.abs(Math.round(kwh * 10) / 10) < 1000) return `${number(kwh, locale, 1)} kWh`;
  }
  return `${number(wh / 1_000_000, locale, 1)} MWh`;
}

/** A share 0..1 as a percentage with one decimal at most: 0.987 → "98.7%". */
export function formatPercent(x: number | null | undefined, locale = currentLocale()): string {
  if (!ok(x)) return '-';
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(x);
}

/** A count with the locale's grouping: 12345 → "12,345". */
export function formatCount(n: number | null | undefined, locale = currentLocale()): string {
  if (!ok(n)) return '-';
  return number(n, locale, 0);
}
