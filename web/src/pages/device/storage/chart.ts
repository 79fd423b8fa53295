/**
 * The Storage tab's history charts (pure, tested in chart.test.ts): the series of POST
 * dev/data/series (SoC, battery, grid and load power of connector 0) as [time, value] lines, SoC in
 * % and power in kW (the stored W ÷ 1000, three decimals), and the ECharts options of the two
 * charts with their axis names and units. The ranges are the site Power tab's: 1 h, 6 h, 24 h, 7 d.
 */
import { ESS } from '../../../services/ess';
import { PALETTE } from '../../../components/charts/theme';
import { toBase } from './storage';

const H = 3_600_000;

/** The chart's spans (labels chart.quick.<key>). */
export const SPANS = [
  { key: '1h', ms: H },
  { key: '6h', ms: 6 * H },
  { key: '24h', ms: 24 * H },
  { key: '7d', ms: 7 * 24 * H },
] as const;
export type SpanKey = (typeof SPANS)[number]['key'];
export const spanMs = (k: SpanKey) => SPANS.find((s) => s.key === k)!.ms;

/** The values the charts draw, asked for in one call. */
export const CHART_NAMES = [ESS.soc, ESS.batteryPower, ESS.gridPower, ESS.loadPower];

export type Point = [number, number];

export interface StorageLines {
  soc: Point[];
  battery: Point[];
  grid: Point[];
  load: Point[];
}

interface SeriesIn {
  name: string;
  unit?: string | null;
  points: readonly { time: number; avg: number }[];
}

/** The series as lines, sorted by time: SoC as it is (%), powers in kW (W, or kW as stored). */
export function storageLines(series: readonly SeriesIn[] | null | undefined): StorageLines {
  const line = (name: string, kilo: boolean): Point[] => {
    const s = (series ?? []).find((x) => x.name === name);
    if (!s) return [];
    return [...s.points]
      .sort((a, b) => a.time - b.time)
      .flatMap((p): Point[] => {
        const v = kilo ? toBase(p.avg, s.unit || 'W') : p.avg;
        if (typeof v !== 'number' || !Number.isFinite(v)) return [];
        return [[p.time, kilo ? Math.round(v) / 1000 : Math.round(v * 10) / 10]];
      });
  };
  return { soc: line(ESS.soc, false), battery: line(ESS.batteryPower, true), grid: line(ESS.gridPower, true), load: line(ESS.loadPower, true) };
}

export const hasPoints = (l: StorageLines) => l.soc.length + l.battery.length + l.grid.length + l.load.length > 0;

export interface ChartTexts {
  soc: string;
  battery: string;
  grid: string;
  load: string;
  /** Axis labels of a time (the chart's time zone). */
  axisTime(v: number): string;
  /** The tooltip's time. */
  tooltipTime(v: number): string;
  /** A number in the UI language. */
  num(v: number): string;
}

/** Whether points are drawn as dots: few of them (a line of one point draws nothing). */
const few = (n: number) => n <= 48;

function base(range: [number, number], texts: ChartTexts, unit: string) {
  return {
    legend: { top: 0 },
    grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: number | null) => (v === null || v === undefined ? '-' : `${texts.num(v)} ${unit}`),
      axisPointer: { label: { formatter: (p: { value: number }) => texts.tooltipTime(p.value) } },
    },
    xAxis: { type: 'time', min: range[0], max: range[1], axisLabel: { formatter: texts.axisTime, hideOverlap: true } },
  };
}

/** SoC over time: one line, y from 0 to 100 %, the axis named "SoC (%)". */
export function socOption(l: StorageLines, range: [number, number], texts: ChartTexts) {
  return {
    ...base(range, texts, '%'),
    color: [PALETTE[5]],
    yAxis: { type: 'value', name: `${texts.soc} (%)`, min: 0, max: 100, axisLabel: { formatter: (v: number) => texts.num(v) } },
    series: [{ name: texts.soc, type: 'line', showSymbol: few(l.soc.length), areaStyle: { opacity: 0.12 }, data: l.soc }],
  };
}

/** Battery, grid and load power over time in kW (signed: battery + discharge, grid + import), the axis named "kW". */
export function powerOption(l: StorageLines, range: [number, number], texts: ChartTexts) {
  return {
    ...base(range, texts, 'kW'),
    color: [PALETTE[0], PALETTE[3], PALETTE[2]],
    yAxis: { type: 'value', name: 'kW', axisLabel: { formatter: (v: number) => texts.num(v) } },
    series: [
      { name: texts.battery, type: 'line', showSymbol: few(l.battery.length), data: l.battery },
      { name: texts.grid, type: 'line', showSymbol: few(l.grid.length), data: l.grid },
      { name: texts.load, type: 'line', showSymbol: few(l.load.length), data: l.load },
    ],
  };
}
