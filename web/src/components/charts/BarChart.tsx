/**
 * Stacked bars over time buckets (hour, day or month) with up to two y axes: series on axis 1
 * are drawn as straight lines (e.g. sessions as bars on the left, energy as a line on the
 * right). A null value (a bucket after now) is drawn as nothing, not as a zero. Charts stacked
 * on a page pass the same `align` (fixed grid) and `group` so their x axes line up and their
 * tooltips move together.
 * Labels and the tooltip's bucket are in the configured time zone (utils/period.ts). Clicking a
 * bar selects (bucket time, series key); clicking elsewhere over a bucket selects the bucket
 * alone. A hidden list repeats the figures per bucket for tests and screen readers
 * (`data-testid={testId-bucket-i}`, `data-time`, one `data-<series key>` per series).
 */
import { useCallback, useMemo, useRef } from 'react';
import { Empty, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ECharts } from 'echarts/core';
import { bucketLabel, bucketText, spansDays, type Step } from '../../utils/period';
import { formatCount } from '../../utils/format';
import { getTimeZone } from '../../utils/time';
import ChartCanvas from './ChartCanvas';
import { PALETTE, VISUALLY_HIDDEN } from './theme';

/** A bucket: its start (unix ms) and one number per series key (missing: 0). */
export interface BarBucket {
  time: number;
}

/** The value of a series in a bucket (0 when missing or not a number). */
export function bucketValue(b: BarBucket, key: string): number {
  const v = (b as unknown as Record<string, unknown>)[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** The drawn value of a series in a bucket: null (nothing drawn, no zero) when the bucket says null (e.g. it lies after now), else bucketValue. */
export function bucketDatum(b: BarBucket, key: string): number | null {
  return (b as unknown as Record<string, unknown>)[key] === null ? null : bucketValue(b, key);
}

/** The ECharts grid of a chart: fixed left and right (no containLabel) when given, so stacked charts' x axes line up. */
export function chartGrid(align?: { left: number; right: number }) {
  return align ? { left: align.left, right: align.right, top: 36, bottom: 28, containLabel: false } : { left: 8, right: 8, top: 36, bottom: 8, containLabel: true };
}

export interface BarSeries {
  key: string;
  name: string;
  color?: string;
  /** Series with the same stack name are stacked; without one a bar stands alone. */
  stack?: string;
  /** 0 left (bars), 1 right (a line). */
  axis?: 0 | 1;
  format?: (v: number) => string;
}

export interface BarChartProps<B extends BarBucket = BarBucket> {
  buckets: readonly B[];
  series: readonly BarSeries[];
  step: Step;
  tz?: string;
  loading?: boolean;
  /** A bucket chosen: with the series clicked, or without one (the bucket's area). */
  onSelect?(time: number, seriesKey?: string): void;
  height?: number;
  testId?: string;
  /** A fixed grid left and right (px) shared by stacked charts, so their x axes line up. */
  align?: { left: number; right: number };
  /** ECharts group of stacked charts: tooltip and pointer move together. */
  group?: string;
}

/** Whether there is nothing to draw: no buckets, or every value zero. */
export function barsEmpty(buckets: readonly BarBucket[], series: readonly BarSeries[]): boolean {
  return !buckets.some((b) => series.some((s) => bucketValue(b, s.key) !== 0));
}

export default function BarChart<B extends BarBucket>({ buckets, series, step, tz = getTimeZone(), loading, onSelect, height = 300, testId, align, group }: BarChartProps<B>) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const empty = barsEmpty(buckets, series);
  const initialLoading = !!loading && buckets.length === 0;
  const fmtOf = (s: BarSeries) => s.format ?? ((v: number) => formatCount(v, locale));
  const multiDay = buckets.length > 1 && spansDays(buckets[0].time, buckets[buckets.length - 1].time + 1, tz);
  const twoAxes = series.some((s) => s.axis === 1);

  const option = useMemo(() => {
    if (empty || initialLoading) return null;
    const labels = buckets.map((b) => bucketLabel(b.time, step, tz, locale, multiDay));
    const axis = (i: 0 | 1) => {
      const first = series.find((s) => (s.axis ?? 0) === i);
      return {
        type: 'value' as const,
        position: i === 0 ? ('left' as const) : ('right' as const),
        minInterval: 1,
        alignTicks: i === 1,
        splitLine: { show: i === 0 },
        axisLabel: { formatter: (v: number) => (first ? fmtOf(first)(v) : String(v)) },
      };
    };
    return {
      color: PALETTE,
      legend: { top: 0, type: 'scroll' },
      grid: chartGrid(align),
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        formatter: (ps: { dataIndex: number; marker: string; seriesName: string; seriesIndex: number; value: number }[]) => {
          if (!ps.length) return '';
          const b = buckets[ps[0].dataIndex];
          const head = bucketText(b.time, step, tz);
          const rows = ps.map((p) => `${p.marker}${p.seriesName}: <b>${p.value === null || p.value === undefined ? '-' : fmtOf(series[p.seriesIndex])(p.value)}</b>`);
          return [head, ...rows].join('<br/>');
        },
      },
      xAxis: { type: 'category', data: labels, axisLabel: { hideOverlap: true }, axisTick: { alignWithLabel: true } },
      yAxis: twoAxes ? [axis(0), axis(1)] : [axis(0)],
      series: series.map((s) => {
        const line = s.axis === 1;
        return {
          name: s.name,
          type: line ? 'line' : 'bar',
          yAxisIndex: twoAxes ? (s.axis ?? 0) : 0,
          stack: line ? undefined : s.stack,
          barMaxWidth: 32,
          // straight segments: a smoothed line overshoots the real values between buckets
          smooth: false,
          showSymbol: line ? buckets.length <= 48 : undefined,
          itemStyle: s.color ? { color: s.color } : undefined,
          lineStyle: line && s.color ? { color: s.color } : undefined,
          emphasis: { focus: 'series' },
          cursor: onSelect ? 'pointer' : 'default',
          data: buckets.map((b) => bucketDatum(b, s.key)),
        };
      }),
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [buckets, series, step, tz, locale, empty, initialLoading, multiDay, twoAxes, !!onSelect, align?.left, align?.right]);

  const selectRef = useRef(onSelect);
  selectRef.current = onSelect;
  const seriesRef = useRef(series);
  seriesRef.current = series;
  const bucketsRef = useRef(buckets);
  bucketsRef.current = buckets;
  const bind = useCallback((chart: ECharts) => {
    const onItem = (p: { dataIndex: number; seriesIndex: number }) => {
      const b = bucketsRef.current[p.dataIndex];
      if (!b) return;
      selectRef.current?.(b.time, seriesRef.current[p.seriesIndex]?.key);
    };
    const zr = chart.getZr();
    const onArea = (e: { offsetX: number; offsetY: number; target?: unknown }) => {
      // a click on a bar (a target) is handled by onItem
      if (e.target) return;
      if (!selectRef.current || !chart.containPixel('grid', [e.offsetX, e.offsetY])) return;
      const [index] = chart.convertFromPixel({ gridIndex: 0 }, [e.offsetX, e.offsetY]) as number[];
      const b = bucketsRef.current[Math.round(index)];
      if (b) selectRef.current(b.time);
    };
    chart.on('click', onItem as never);
    zr.on('click', onArea as never);
    return () => {
      chart.off('click', onItem as never);
      zr.off('click', onArea as never);
    };
  }, []);

  return (
    <div data-testid={testId} data-empty={empty ? '1' : '0'} data-loading={loading ? '1' : '0'} data-step={step} data-grid={align ? `${align.left},${align.right}` : 'auto'} style={{ position: 'relative' }}>
      {initialLoading ? (
        <div style={{ height, display: 'flex', alignItems: 'center' }}>
          <Skeleton active paragraph={{ rows: 5 }} />
        </div>
      ) : empty ? (
        <div style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chart.empty')} />
        </div>
      ) : (
        <ChartCanvas option={option} bind={bind} height={height} group={group} />
      )}
      <ul style={VISUALLY_HIDDEN}>
        {buckets.map((b, i) => (
          <li key={b.time}>
            <button
              type="button"
              data-testid={testId && `${testId}-bucket-${i}`}
              data-time={b.time}
              {...Object.fromEntries(series.map((s) => [`data-${s.key.toLowerCase()}`, bucketDatum(b, s.key) ?? '']))}
              onClick={() => onSelect?.(b.time)}
            >
              {bucketLabel(b.time, step, tz, locale, multiDay)}: {series.map((s) => `${s.name} ${bucketDatum(b, s.key) === null ? '-' : fmtOf(s)(bucketValue(b, s.key))}`).join(', ')}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
