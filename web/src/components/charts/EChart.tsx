/**
 * The ECharts canvas of PieChart and BarChart, in a chunk of its own with ECharts (echarts/core
 * and only the chart types and components they use). Loaded through ChartCanvas.tsx after the
 * page has rendered; see deferred.tsx.
 */
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { useEChart, type ChartBinder } from './useEChart';

echarts.use([BarChart, LineChart, PieChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

export interface EChartProps {
  /** The option, set again (not merged) when it changes. */
  option: object | null;
  /** Binds event handlers to the chart; returns their removal. */
  bind?: ChartBinder;
  height: number;
  /** ECharts group: charts of one group share tooltip, pointer and zoom. */
  group?: string;
}

export default function EChart({ option, bind, height, group }: EChartProps) {
  const setEl = useEChart(option, bind, group);
  return <div ref={setEl} data-chart="ready" style={{ width: '100%', height }} />;
}
