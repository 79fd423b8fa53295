/**
 * Pure logic of a site's Power tab (issue 25), tested in sitePower.test.ts: the setting as the
 * form edits it and back, the measured share of the limit, the chart's spans and series.
 */
import type { PowerSample, PowerWindow, SitePowerSetting } from '../../../services/power';

/** A time of day as the form's time picker holds it (dayjs), or its "HH:mm" text. */
export type TimeValue = string | { format(f: string): string } | null | undefined;

export interface WindowValues {
  from: TimeValue;
  to: TimeValue;
  days?: number[];
  limitKw?: number | null;
}

export interface SettingValues {
  enabled: boolean;
  limitMode: 'kw' | 'a';
  limit?: number | null;
  minA?: number | null;
  editLevel: number;
  schedule?: WindowValues[];
}

export const DEFAULT_MIN_A = 6;

const hhmm = (v: TimeValue): string => (typeof v === 'string' ? v : v ? v.format('HH:mm') : '');

/** The setting as the form edits it: the limit in the unit it was given in (kW when none). */
export function settingToForm(p: SitePowerSetting): Omit<SettingValues, 'schedule'> & { schedule: { from: string; to: string; days: number[]; limitKw: number }[] } {
  const a = p.limitA > 0 && !(p.limitKw > 0);
  return {
    enabled: p.enabled,
    limitMode: a ? 'a' : 'kw',
    limit: a ? p.limitA : p.limitKw > 0 ? p.limitKw : null,
    minA: p.minA || DEFAULT_MIN_A,
    editLevel: p.editLevel,
    schedule: (p.schedule ?? []).map((w) => ({ from: w.from, to: w.to, days: w.days ?? [], limitKw: w.limitKw })),
  };
}

/** The form as the setting POST site/power takes: exactly one of limitKw / limitA, days sorted. */
export function formToSetting(v: SettingValues, base: Pick<SitePowerSetting, 'siteId' | 'updatedBy' | 'updatedAt'>): SitePowerSetting {
  const limit = typeof v.limit === 'number' && v.limit > 0 ? v.limit : 0;
  return {
    siteId: base.siteId,
    enabled: v.enabled,
    limitKw: v.limitMode === 'kw' ? limit : 0,
    limitA: v.limitMode === 'a' ? limit : 0,
    minA: typeof v.minA === 'number' ? v.minA : DEFAULT_MIN_A,
    editLevel: v.editLevel,
    schedule: (v.schedule ?? []).map(
      (w): PowerWindow => ({ from: hhmm(w.from), to: hhmm(w.to), days: [...new Set(w.days ?? [])].sort((x, y) => x - y), limitKw: w.limitKw ?? 0 }),
    ),
    updatedBy: base.updatedBy,
    updatedAt: base.updatedAt,
  };
}

/** Measured power as a percentage of the limit (0-100, rounded; null without a limit). */
export function usagePercent(actualW: number, limitW: number): number | null {
  if (!(limitW > 0)) return null;
  return Math.min(100, Math.max(0, Math.round((actualW / limitW) * 100)));
}

/** Progress colour: green, orange from 80 %, red from 95 %. */
export function usageStatus(percent: number | null): 'success' | 'normal' | 'exception' | 'active' {
  if (percent === null) return 'normal';
  if (percent >= 95) return 'exception';
  if (percent >= 80) return 'active';
  return 'success';
}

/** The chart's spans. */
export const SPANS = [
  { key: '1h', ms: 3_600_000 },
  { key: '6h', ms: 6 * 3_600_000 },
  { key: '24h', ms: 24 * 3_600_000 },
  { key: '7d', ms: 7 * 24 * 3_600_000 },
] as const;
export type SpanKey = (typeof SPANS)[number]['key'];
export const spanMs = (k: SpanKey) => SPANS.find((s) => s.key === k)!.ms;

/** The samples as kW series [time, kW] (a limit of 0, none, is drawn as a gap). */
export function historySeries(samples: readonly PowerSample[] | null | undefined): {
  limit: [number, number | null][];
  planned: [number, number][];
  measured: [number, number][];
} {
  const kw = (w: number) => Math.round(w) / 1000;
  const list = [...(samples ?? [])].sort((a, b) => a.at - b.at);
  return {
    limit: list.map((s) => [s.at, s.limitW > 0 ? kw(s.limitW) : null]),
    planned: list.map((s) => [s.at, kw(s.allocatedW)]),
    measured: list.map((s) => [s.at, kw(s.actualW)]),
  };
}

/** A charger's allocation is a pause: it gets 0 A. */
export const isPaused = (limitA: number) => limitA === 0;
