/**
 * One line chart of device series: a time x axis spanning the chosen range (not only the data),
 * one y axis per unit with the unit on the axis and in the tooltip (utils/charts.ts), one line
 * per phase and location with a legend naming it (meterFormat.ts), labels in the configured
 * time zone.
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
import { useCatalogue } from '../../hooks/useCatalogue';
import { getTimeZone, formatTime } from '../../utils/time';

echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

const AXIS_GAP = 84;

export interface SeriesChartProps {
  range: [number, number];
  step: number;
  axes: Axis[];
  series: ChartSeries[];
}

/** Axis i sits left (even) or right (odd), each further pair moved out by AXIS_GAP. */
function yAxis(a: Axis, i: number) {
  return {
    type: 'value' as const,
    scale: true,
    name: a.unit,
    position: i % 2 === 0 ? ('left' as const) : ('right' as const),
    offset: Math.floor(i / 2) * AXIS_GAP,
    alignTicks: i > 0,
    axisLine: { show: true },
    axisLabel: { formatter: (v: number) => (a.unit ? `${shownNumber(v)} ${a.unit}` : shownNumber(v)) },
  };
}

export default function SeriesChart({ range, step, axes, series }: SeriesChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const unitOf = (i: number) => axes[i]?.unit ?? '';
  const catalogue = useCatalogue();
  const { t } = useTranslation();
  const nameOf = (name: string) => seriesDisplayName(name, (m) => catalogue.label(m, false), t);
  const names = series.map((s) => nameOf(s.name)).join('|'); // redraw when the catalogue arrives
  useEffect(() => {
    if (!ref.current) return;
    const chart = echarts.init(ref.current);
    const tz = getTimeZone();
    const fmt = axisTimeFormat(step, range[1] - range[0]);
    const left = Math.ceil(axes.length / 2) * AXIS_GAP + 16;
    const right = Math.floor(axes.length / 2) * AXIS_GAP + 24;
    chart.setOption({
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left, right, top: 48, bottom: 56, containLabel: true },
      xAxis: {
        type: 'time',
        min: range[0],
        max: range[1],
        axisLabel: { formatter: (v: number) => dayjs(v).tz(tz).format(fmt), hideOverlap: true },
        axisPointer: { label: { formatter: (p: { value: number }) => formatTime(p.value) } },
      },
      yAxis: axes.map(yAxis),
      dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }],
      series: series.map((s) => ({
        name: nameOf(s.name),
        type: 'line',
        yAxisIndex: s.axis,
        data: s.points,
        connectNulls: false,
        showSymbol: showDots(s.points.length),
        tooltip: { valueFormatter: (v: number) => (unitOf(s.axis) ? `${shownNumber(v)} ${unitOf(s.axis)}` : shownNumber(v)) },
      })),
    });
    const onResize = () => chart.resize();
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      chart.dispose();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [range[0], range[1], step, axes, series, names]);
  return (
    <div
      ref={ref}
      style={{ width: '100%', height: 360 }}
      data-testid="series-chart"
      data-axes={axes.map((a) => a.unit).join('|')}
      data-legend={series.map((s) => nameOf(s.name)).join('|')}
      data-range={`${range[0]}-${range[1]}`}
    />
  );
}
