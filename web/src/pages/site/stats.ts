/**
 * Pure logic of a site's statistics (docs/dashboards.md, site/stats), tested in stats.test.ts:
 * the status slices and the list each opens, the traffic buckets in chart units, availability.
 */
import { DEVICE_STATUSES } from '../../services/device';
import type { SiteBucket } from '../../services/stats';
import { formatPercent } from '../../utils/format';

/** One status with devices: its code and count. */
export interface StatusCount {
  status: number;
  count: number;
}

/**
 * The statuses that have devices, in status order (0 offline .. 6 disabled), then any code the
 * console does not know, in code order. Zero counts are left out (a pie has no empty slices).
 */
export function statusCounts(byStatus: Record<string, number> | null | undefined): StatusCount[] {
  const out: StatusCount[] = [];
  const known = new Set(DEVICE_STATUSES);
  for (const s of DEVICE_STATUSES) {
    const n = byStatus?.[String(s)] ?? 0;
    if (n > 0) out.push({ status: s, count: n });
  }
  const other = Object.keys(byStatus ?? {})
    .map(Number)
    .filter((s) => Number.isInteger(s) && !known.has(s) && (byStatus?.[String(s)] ?? 0) > 0)
    .sort((a, b) => a - b);
  for (const s of other) out.push({ status: s, count: byStatus![String(s)] });
  return out;
}

/** Slice colours of the statuses, matching their badges (STATUS_COLORS): grey offline, green idle, blue working... */
export const STATUS_HEX: Record<number, string> = {
  0: '#bfbfbf',
  1: '#52c41a',
  2: '#1677ff',
  3: '#ff4d4f',
  4: '#faad14',
  5: '#722ed1',
  6: '#8c8c8c',
};

/** The pie slices of the statuses with devices: key = status code. */
export function statusSlices(byStatus: Record<string, number> | null | undefined, name: (status: number) => string): { key: string; name: string; value: number; color?: string }[] {
  return statusCounts(byStatus).map((c) => ({ key: String(c.status), name: name(c.status), value: c.count, color: STATUS_HEX[c.status] }));
}

/** The device list of a site's devices in one status. */
export function deviceListHref(siteId: number, status: number): string {
  return `/manage/device/list?siteId=${siteId}&status=${status}`;
}

/** Availability (0..1, null without devices) as a percentage, "-" when unknown. */
export function availabilityText(a: number | null | undefined, locale?: string): string {
  return formatPercent(a ?? null, locale);
}

/**
 * A traffic bucket in chart units: sessions, energy in kWh, charging time in hours. A bucket
 * that starts after now has no figures yet (null: drawn as nothing, not as a zero).
 */
export interface TrafficPoint {
  time: number;
  sessions: number | null;
  energyKWh: number | null;
  chargeHours: number | null;
  faults: number | null;
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/**
 * The server's buckets in chart units. It lists every bucket of the range, those after now with
 * zeros: they are kept (the x axis spans the range) but without figures, so the days after
 * today are not drawn as zeros. The bucket now falls in has its figures so far.
 */
export function trafficPoints(buckets: SiteBucket[] | null | undefined, now: number = Date.now()): TrafficPoint[] {
  return (buckets ?? []).map((b) =>
    b.time > now
      ? { time: b.time, sessions: null, energyKWh: null, chargeHours: null, faults: null }
      : {
          time: b.time,
          sessions: b.sessions,
          energyKWh: round(b.energyWh / 1000, 3),
          chargeHours: round(b.chargeMs / 3_600_000, 2),
          faults: b.faults,
        },
  );
}

/** The grid of the site's stacked charts: the same left and right so their x axes line up. */
export const STACK_GRID = { left: 64, right: 88 } as const;

/** Energy already in kWh, as the chart's right axis and tooltip show it: "1,234.5 kWh". */
export function formatKWh(kwh: number, locale?: string): string {
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(kwh)} kWh`;
}
