/**
 * Where a chart draws: an empty box of the chart's size until the ECharts chunk (EChart.tsx)
 * is in, then the canvas. Everything else of a chart (legends, figures, empty and loading
 * states) renders with the page.
 */
import { deferred } from '../deferred';
import type { EChartProps } from './EChart';

export type { EChartProps as ChartCanvasProps };

const ChartCanvas = deferred<EChartProps>(
  () => import('./EChart'),
  ({ height }) => <div data-chart="pending" style={{ width: '100%', height }} />,
);

export default ChartCanvas;
