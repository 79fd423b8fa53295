/**
 * Pure logic of the device data charts (tested in charts.test.ts): one y axis per physical
 * quantity with its unit (energy in kWh and power in kW, SoC in %, temperature in °C), an x axis that spans
 * the chosen range, ranges that end "now" and follow the clock, and the default step.
 */
import { MONTH_STEP, suggestStep } from './fleet';

// ---------------------------------------------------------------- units and axes

/** A unit as drawn: the quantity it measures, its label and its factor to the quantity's base unit. */
interface UnitInfo {
  quantity: string;
  label: string;
  factor: number;
}

/** Units of the catalogue and of OCPP MeterValues (`unit` of a sampled value), by spelling. */
const UNITS: Record<string, UnitInfo> = {
  w: { quantity: 'power', label: 'W', factor: 1 },
  kw: { quantity: 'power', label: 'kW', factor: 1000 },
  var: { quantity: 'reactive', label: 'var', factor: 1 },
  kvar: { quantity: 'reactive', label: 'kvar', factor: 1000 },
  va: { quantity: 'apparent', label: 'VA', factor: 1 },
  kva: { quantity: 'apparent', label: 'kVA', factor: 1000 },
  wh: { quantity: 'energy', label: 'Wh', factor: 1 },
  kwh: { quantity: 'energy', label: 'kWh', factor: 1000 },
  varh: { quantity: 'reactiveEnergy', label: 'varh', factor: 1 },
  kvarh: { quantity: 'reactiveEnergy', label: 'kvarh', factor: 1000 },
  a: { quantity: 'current', label: 'A', factor: 1 },
  v: { quantity: 'voltage', label: 'V', factor: 1 },
  percent: { quantity: 'percent', label: '%', factor: 1 },
  '%': { quantity: 'percent', label: '%', factor: 1 },
  celsius: { quantity: 'celsius', label: '°C', factor: 1 },
  '°c': { quantity: 'celsius', label: '°C', factor: 1 },
  c: { quantity: 'celsius', label: '°C', factor: 1 },
  fahrenheit: { quantity: 'fahrenheit', label: '°F', factor: 1 },
  '°f': { quantity: 'fahrenheit', label: '°F', factor: 1 },
  k: { quantity: 'kelvin', label: 'K', factor: 1 },
  hz: { quantity: 'frequency', label: 'Hz', factor: 1 },
  rpm: { quantity: 'rpm', label: 'rpm', factor: 1 },
};

/** What a unit measures; an unknown unit is its own quantity, no unit is "none". */
export function unitInfo(unit: string | undefined): UnitInfo {
  const u = (unit ?? '').trim();
  if (!u) return { quantity: 'none', label: '', factor: 1 };
  return UNITS[u.toLowerCase()] ?? { quantity: `unit:${u}`, label: u, factor: 1 };
}

/** The kilo unit a quantity is drawn in (the server stores Wh and W; docs/gateway.md, "Meter values"). */
const KILO: Record<string, string> = { power: 'kW', reactive: 'kvar', apparent: 'kVA', energy: 'kWh', reactiveEnergy: 'kvarh' };

export interface Axis {
  /** Label of the unit drawn on the axis ('' for plain numbers). */
  unit: string;
  /** Series (names) drawn against this axis. */
  names: string[];
}

export interface ChartSeries {
  name: string;
  /** Index into the axes. */
  axis: number;
  /** [time, value in the axis unit] */
  points: [number, number][];
}

/**
 * Groups series by quantity into y axes (first seen first), each in one unit: values are
 * converted to the quantity's base unit, then energy and power to their kilo unit (a stored
 * 12345 Wh reads "12.345 kWh", 7200 W "7.2 kW"), as the device page's latest values do.
 */
export function chartAxes(
  series: { name: string; points: { time: number; avg: number }[] }[],
  unitOf: (name: string) => string | undefined,
): { axes: Axis[]; series: ChartSeries[] } {
  const order: string[] = [];
  const groups = new Map<string, { names: string[]; base: string; max: number }>();
  const info = series.map((s) => unitInfo(unitOf(s.name)));
  series.forEach((s, i) => {
    const u = info[i];
    let g = groups.get(u.quantity);
    if (!g) {
      g = { names: [], base: u.factor === 1 ? u.label : (Object.values(UNITS).find((x) => x.quantity === u.quantity && x.factor === 1)?.label ?? u.label), max: 0 };
      groups.set(u.quantity, g);
      order.push(u.quantity);
    }
    g.names.push(s.name);
    for (const p of s.points) g.max = Math.max(g.max, Math.abs(p.avg * u.factor));
  });
  const axes: Axis[] = [];
  const divisor = new Map<string, number>();
  for (const q of order) {
    const g = groups.get(q)!;
    const kilo = !!KILO[q];
    axes.push({ unit: kilo ? KILO[q] : g.base, names: g.names });
    divisor.set(q, kilo ? 1000 : 1);
  }
  return {
    axes,
    series: series.map((s, i) => {
      const u = info[i];
      const d = divisor.get(u.quantity)!;
      return {
        name: s.name,
        axis: order.indexOf(u.quantity),
        points: s.points.map((p) => [p.time, Math.round(((p.avg * u.factor) / d) * 1000) / 1000] as [number, number]),
      };
    }),
  };
}

// ---------------------------------------------------------------- range and step

/** A chosen range: fixed, or the last `span` ms up to the clock ("now" moves while the page is open). */
export type ChartRange = { kind: 'fixed'; start: number; end: number } | { kind: 'live'; span: number };

/** A range whose end is within `slack` ms of the clock when it is chosen ends "now": it follows the clock. */
export function chooseRange(start: number, end: number, now: number, slack = 60_000): ChartRange {
  if (end >= now - slack) return { kind: 'live', span: Math.max(60_000, now - start) };
  return { kind: 'fixed', start, end };
}

/** [start, end] of a range at a time (unix ms). */
export function rangeAt(r: ChartRange, now: number): [number, number] {
  return r.kind === 'live' ? [now - r.span, now] : [r.start, r.end];
}

/** How often a live range moves (and refetches): once a step, at least every minute, at most every 15 minutes. */
export function liveTickMs(step: number): number {
  return Math.min(15 * 60_000, Math.max(60_000, step * 60_000));
}

/** The clock rounded down to a tick, so a live range changes (and refetches) once a tick, not on every render. */
export function tickOf(now: number, tickMs: number): number {
  return now - (now % tickMs);
}

/** The default step of a range: about 100-500 points (24 h → 5 min), months for years. */
export function defaultStep(rangeMs: number): number {
  return rangeMs <= 0 ? 1 : suggestStep(rangeMs);
}

/** Whether points of a step are drawn as dots: few of them, or alone (a single bucket must show). */
export function showDots(pointCount: number): boolean {
  return pointCount < 60;
}

/** x-axis label format of a step (dayjs). */
export function axisTimeFormat(step: number, rangeMs: number): string {
  if (step === MONTH_STEP) return 'YYYY-MM';
  if (step >= 1440 || rangeMs > 3 * 24 * 3600_000) return 'MM-DD';
  return 'MM-DD HH:mm';
}
