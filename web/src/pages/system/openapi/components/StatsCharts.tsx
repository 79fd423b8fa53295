/**
 * The range's charts: calls per day of the console's time zone, labelled by their date there
 * (successful and errors stacked), calls per endpoint and
 * p50/p90/p99 latency per endpoint. The canvases come with ECharts' own chunk
 * (components/charts/EChart.tsx), fetched when a chart first renders, so ECharts is not part of
 * the route's first load. It is imported here directly, not through ChartCanvas/BarChart: those
 * share modules with the home page, and one more importer splits them into more chunks on the
 * home page's first load (scripts/budget.mjs).
 */
import { lazy, Suspense, useMemo, type ComponentType, type ReactNode } from 'react';
import { Card, Col, Empty, Row, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import type { EChartProps } from '../../../../components/charts/EChart';
import type { AccessStats } from '../../../../services/openapiLog';
import { getTimeZone } from '../../../../utils/time';
import { dailyBuckets, dailyOption, endpointCallsOption, endpointChartHeight, latencyOption, noCalls } from '../shape';

const Box = ({ height }: { height: number }) => <div data-chart="pending" style={{ width: '100%', height }} />;

// a chunk that cannot be loaded (a new release removed it) keeps the empty box; main.tsx offers the reload
// (vite's preload helper resolves undefined when main.tsx handles the preload error)
type Module = { default: ComponentType<EChartProps> } | undefined;
const EChart = lazy(() =>
  import('../../../../components/charts/EChart').then(
    (m: Module) => ({ default: m?.default ?? Box }),
    () => ({ default: Box }),
  ),
);

function Chart({ option, height, empty, loading, testId, extra }: { option: object; height: number; empty: boolean; loading: boolean; testId: string; extra?: object }) {
  const { t } = useTranslation();
  let body: ReactNode;
  if (loading) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (empty)
    body = (
      <div style={{ height: Math.min(height, 200), display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chart.empty')} />
      </div>
    );
  else
    body = (
      <Suspense fallback={<Box height={height} />}>
        <EChart option={option} height={height} />
      </Suspense>
    );
  return (
    <div data-testid={testId} data-empty={empty ? '1' : '0'} {...extra}>
      {body}
    </div>
  );
}

export default function StatsCharts({ stats, loading }: { stats: AccessStats | undefined; loading: boolean }) {
  const { t } = useTranslation();
  const names = useMemo(() => ({ ok: t('openapi.successes'), errors: t('openapi.errors') }), [t]);
  const buckets = useMemo(() => dailyBuckets(stats?.days), [stats?.days]);
  const endpoints = useMemo(() => stats?.endpoints ?? [], [stats?.endpoints]);
  const tz = getTimeZone();
  const daily = useMemo(() => dailyOption(buckets, names, tz), [buckets, names, tz]);
  const calls = useMemo(() => endpointCallsOption(endpoints, names), [endpoints, names]);
  const latency = useMemo(() => latencyOption(endpoints, { p50: 'p50', p90: 'p90', p99: 'p99' }), [endpoints]);
  const n = endpoints.length;
  return (
    <>
      <Card title={t('openapi.chart.daily', { tz })} style={{ marginBottom: 16 }}>
        <Chart option={daily} height={260} empty={noCalls(stats?.days)} loading={loading} testId="openapi-daily-chart" extra={{ 'data-days': buckets.length }} />
      </Card>
      <Row gutter={16}>
        <Col xs={24} xl={12}>
          <Card title={t('openapi.chart.endpoints')} style={{ marginBottom: 16 }}>
            <Chart option={calls} height={endpointChartHeight(n)} empty={n === 0} loading={loading} testId="openapi-endpoint-chart" extra={{ 'data-endpoints': n }} />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title={t('openapi.chart.latency')} style={{ marginBottom: 16 }}>
            <Chart option={latency} height={endpointChartHeight(n)} empty={n === 0} loading={loading} testId="openapi-latency-chart" />
          </Card>
        </Col>
      </Row>
    </>
  );
}
