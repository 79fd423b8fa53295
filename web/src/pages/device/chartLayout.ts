/**
 * How the device data charts open and lay out (issue 30, item 10), pure and tested in
 * chartLayout.test.ts: the quick ranges (1 h, 6 h, 24 h, 7 d), the default range fitted to the
 * data's first timestamp (so live data is not squeezed to the right edge of a 24 h axis), the
 * data items shown without a choice, and the split of unit axes into stacked charts of at most
 * two y axes each (a left and a right one), all sharing one grid so their x axes line up.
 */
import type { Axis, ChartSeries } from '../../utils/charts';
import { seriesParts } from './meterFormat';

const H = 3600_000;

/** The quick ranges, shortest first: key (chart.quick.<key>) and span. */
export const QUICK_RANGES = [
  { key: '1h', span: H },
  { key: '6h', span: 6 * H },
  { key: '24h', span: 24 * H },
  { key: '7d', span: 7 * 24 * H },
] as const;

export type QuickKey = (typeof QUICK_RANGES)[number]['key'];

/** How far back the first timestamp is looked for before a range is chosen. */
export const PROBE_SPAN = 24 * H;

/**
 * The default range of a device's charts from the first timestamp of its data in the last
 * PROBE_SPAN (null: none): the shortest of 1 h, 6 h and 24 h that holds all of it, so data of the
 * last 20 minutes opens on 1 h; no data in the last day opens on 7 d (older data, if any, shows).
 */
export function fitRange(first: number | null, now: number): QuickKey {
  if (first === null) return '7d';
  const age = now - first;
  for (const q of QUICK_RANGES) if (q.key !== '7d' && age <= q.span) return q.key;
  return '24h';
}

/** The first point time of several series (null when none has a point). */
export function firstTime(series: readonly { points: readonly { time: number }[] }[]): number | null {
  let first: number | null = null;
  for (const s of series) for (const p of s.points) if (first === null || p.time < first) first = p.time;
  return first;
}

/** Measurands drawn without a choice, in this order (OCPP 1.6 names). */
export const DEFAULT_MEASURANDS = ['Power.Active.Import', 'Energy.Active.Import.Register', 'Current.Import', 'Voltage', 'SoC', 'Temperature'];

/** At most this many series are drawn without a choice. */
export const MAX_DEFAULT_ITEMS = 8;

/**
 * The data items (and connector) shown when the charts open: of the connector that reports most
 * of DEFAULT_MEASURANDS (the lowest one on a tie), its series of those measurands (every phase
 * and location) in that order, at most MAX_DEFAULT_ITEMS; a device reporting none of them opens
 * on its first numeric items. Null when the device reports nothing numeric.
 */
export function defaultItems(values: readonly { name: string; connectorId: number; value: string }[]): { names: string[]; connectorId: number } | null {
  const numeric = values.filter((v) => v.value.trim() !== '' && Number.isFinite(Number(v.value)));
  if (!numeric.length) return null;
  const rank = (name: string) => DEFAULT_MEASURANDS.indexOf(seriesParts(name).measurand);
  const byConn = new Map<number, Set<string>>();
  for (const v of numeric) {
    if (!byConn.has(v.connectorId)) byConn.set(v.connectorId, new Set());
    byConn.get(v.connectorId)!.add(v.name);
  }
  let best: { conn: number; score: number } | null = null;
  for (const [conn, names] of [...byConn].sort((a, b) => a[0] - b[0])) {
    const score = new Set([...names].filter((n) => rank(n) >= 0).map((n) => seriesParts(n).measurand)).size;
    if (!best || score > best.score) best = { conn, score };
  }
  const names = [...byConn.get(best!.conn)!];
  const known = names.filter((n) => rank(n) >= 0).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const picked = known.length ? known : names.sort();
  return { names: picked.slice(0, MAX_DEFAULT_ITEMS), connectorId: best!.conn };
}

/** Units drawn together on one chart (left, right) when both are there. */
const PAIRS: [string, string][] = [
  ['kW', 'kWh'],
  ['A', 'V'],
  ['%', '°C'],
  ['kvar', 'kvarh'],
];

/** One chart of the stack: its (one or two) axes and its series, `axis` 0 (left) or 1 (right). */
export interface ChartPanel {
  axes: Axis[];
  series: ChartSeries[];
}

/**
 * Splits unit axes (chartAxes) into stacked charts of at most two y axes: the usual partners
 * (power and energy, current and voltage, SoC and temperature) share a chart, the other axes are
 * paired in order; charts are ordered by their first axis.
 */
export function splitPanels(axes: readonly Axis[], series: readonly ChartSeries[]): ChartPanel[] {
  const used = new Set<number>();
  const groups: number[][] = [];
  const partnerOf = (unit: string) => {
    for (const [a, b] of PAIRS) {
      if (a === unit) return b;
      if (b === unit) return a;
    }
    return null;
  };
  // the usual partners first
  axes.forEach((a, i) => {
    if (used.has(i)) return;
    const p = partnerOf(a.unit);
    const j = p === null ? -1 : axes.findIndex((b, k) => !used.has(k) && k !== i && b.unit === p);
    if (j >= 0) {
      groups.push([i, j].sort((x, y) => x - y));
      used.add(i).add(j);
    }
  });
  // the rest two by two, in order
  let open: number[] | null = null;
  axes.forEach((_, i) => {
    if (used.has(i)) return;
    used.add(i);
    if (open && open.length < 2) open.push(i);
    else groups.push((open = [i]));
  });
  groups.sort((a, b) => a[0] - b[0]);
  return groups.map((g) => ({
    axes: g.map((i) => axes[i]),
    series: series.filter((s) => g.includes(s.axis)).map((s) => ({ ...s, axis: g.indexOf(s.axis) })),
  }));
}

/** The grid of every chart in a stack: the same left and right so their x axes line up. */
export const PANEL_GRID = { left: 72, right: 72 } as const;
