/**
 * One line chart of device series: a time x axis spanning the chosen range (not only the data),
 * at most two y axes (left and right, chartLayout.ts) with the unit on the axis and in the
 * tooltip (utils/charts.ts), one line per phase and location with a legend naming it
 * (meterFormat.ts), labels in the configured time zone. Charts of one stack share a fixed grid
 * (PANEL_GRID) so their x axes line up, and an ECharts group: tooltip, pointer and zoom move
 * together; the last one carries the zoom slider.
 */
import { useEffect, useRef } from 'react';
import dayjs from 'dayjs';
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { useTranslation } from 'react-i18next';
import { axisTimeFormat, showDots, type Axis, type ChartSeries } from '../../utils/charts';
import { seriesDisplayName, shownNumber } from './meterFormat';
import { PANEL_GRID } from './chartLayout';
import { useCatalogue } from '../../hooks/useCatalogue';
import { getTimeZone, formatTime } from '../../utils/time';
import { chartMotion, REDUCED_MOTION } from '../../utils/motion';

echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

export interface SeriesChartProps {
  range: [number, number];
  step: number;
  /** one or two axes: the first left, the second right */
  axes: Axis[];
  series: ChartSeries[];
  /** ECharts group of the stack (linked tooltip, pointer and zoom) */
  group?: string;
  /** the last chart of the stack: it carries the zoom slider */
  slider?: boolean;
  height?: number;
}

/** Axis 0 sits left, axis 1 right; the unit is the axis name, the labels are numbers (so they fit the shared grid). */
function yAxis(a: Axis, i: number) {
  return {
    type: 'value' as const,
    scale: true,
    name: a.unit,
    position: i === 0 ? ('left' as const) : ('right' as const),
    alignTicks: i > 0,
    axisLine: { show: true },
    axisLabel: { formatter: (v: number) => shownNumber(v) },
  };
}

export default function SeriesChart({ range, step, axes, series, group, slider = true, height = 360 }: SeriesChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const unitOf = (i: number) => axes[i]?.unit ?? '';
  const catalogue = useCatalogue();
  const { t } = useTranslation();
  const nameOf = (name: string) => seriesDisplayName(name, (m) => catalogue.label(m, false), t);
  const names = series.map((s) => nameOf(s.name)).join('|'); // redraw when the catalogue arrives
  useEffect(() => {
    if (!ref.current) return;
    const chart = echarts.init(ref.current);
    if (group) {
      chart.group = group;
      echarts.connect(group);
    }
    const tz = getTimeZone();
    const fmt = axisTimeFormat(step, range[1] - range[0]);
    chart.setOption(chartMotion({
      tooltip: { trigger: 'axis' },
      legend: { top: 0, type: 'scroll' },
      grid: { left: PANEL_GRID.left, right: PANEL_GRID.right, top: 48, bottom: slider ? 56 : 28, containLabel: false },
      xAxis: {
        type: 'time',
        min: range[0],
        max: range[1],
        axisLabel: { formatter: (v: number) => dayjs(v).tz(tz).format(fmt), hideOverlap: true },
        axisPointer: { label: { formatter: (p: { value: number }) => formatTime(p.value) } },
      },
      yAxis: axes.map(yAxis),
      dataZoom: slider ? [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }] : [{ type: 'inside' }],
      series: series.map((s) => ({
        name: nameOf(s.name),
        type: 'line',
        yAxisIndex: s.axis,
        data: s.points,
        connectNulls: false,
        showSymbol: showDots(s.points.length),
        tooltip: { valueFormatter: (v: number) => (unitOf(s.axis) ? `${shownNumber(v)} ${unitOf(s.axis)}` : shownNumber(v)) },
      })),
    }, REDUCED_MOTION));
    const onResize = () => chart.resize();
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      chart.dispose();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [range[0], range[1], step, axes, series, names, group, slider]);
  return (
    <div
      ref={ref}
      style={{ width: '100%', height }}
      data-testid="series-chart"
      data-axes={axes.map((a) => a.unit).join('|')}
      data-y-axes={axes.length}
      data-grid={`${PANEL_GRID.left},${PANEL_GRID.right}`}
      data-legend={series.map((s) => nameOf(s.name)).join('|')}
      data-range={`${range[0]}-${range[1]}`}
    />
  );
}
