/**
 * The site's power over time (GET site/power/history, one sample a minute): the limit as a step
 * line, the planned (allocated) and measured kW, over the last 1 h / 6 h / 24 h / 7 d, read
 * again every 60 s. The ECharts canvas is fetched after the page renders (components/charts
 * ChartCanvas, like the statistics' charts), so ECharts stays out of the route's first load.
 */
import { useMemo, useState } from 'react';
import { Card, Empty, Segmented, Skeleton } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import ChartCanvas from '../../../components/charts/ChartCanvas';
import { PALETTE } from '../../../components/charts/theme';
import { getSitePowerHistory, powerKeys } from '../../../services/power';
import { formatTime, getTimeZone } from '../../../utils/time';
import { historySeries, SPANS, spanMs, type SpanKey } from './sitePower';

const HEIGHT = 320;
const REFETCH_MS = 60_000;

export default function PowerChart({ siteId }: { siteId: number }) {
  const { t, i18n } = useTranslation();
  const [span, setSpan] = useState<SpanKey>('6h');
  const q = useQuery({
    queryKey: powerKeys.historyOf(siteId, spanMs(span)),
    queryFn: async () => {
      const end = Date.now();
      const start = end - spanMs(span);
      return { start, end, samples: await getSitePowerHistory(siteId, start, end) };
    },
    placeholderData: keepPreviousData,
    refetchInterval: REFETCH_MS,
  });
  const data = q.data;
  const series = useMemo(() => historySeries(data?.samples), [data?.samples]);
  const empty = !!data && data.samples.length === 0;
  const option = useMemo(() => {
    if (!data || empty) return null;
    const tz = getTimeZone();
    const fmt = spanMs(span) > 24 * 3_600_000 ? 'MM-DD HH:mm' : 'HH:mm';
    const num = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
    const few = data.samples.length <= 48;
    return {
      color: [PALETTE[3], PALETTE[0], PALETTE[1]],
      legend: { top: 0 },
      grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
      tooltip: {
        trigger: 'axis',
        valueFormatter: (v: number | null) => (v === null || v === undefined ? '-' : `${num.format(v)} kW`),
        axisPointer: { label: { formatter: (p: { value: number }) => formatTime(p.value) } },
      },
      xAxis: {
        type: 'time',
        min: data.start,
        max: data.end,
        axisLabel: { formatter: (v: number) => dayjs(v).tz(tz).format(fmt), hideOverlap: true },
      },
      yAxis: { type: 'value', name: 'kW', min: 0, axisLabel: { formatter: (v: number) => num.format(v) } },
      // a line of one point draws nothing: few samples (a site just planned) show their points
      series: [
        { name: t('power.chart.limit'), type: 'line', step: 'end', showSymbol: few, connectNulls: false, lineStyle: { type: 'dashed', width: 2 }, data: series.limit },
        { name: t('power.chart.planned'), type: 'line', showSymbol: few, data: series.planned },
        { name: t('power.chart.measured'), type: 'line', showSymbol: few, areaStyle: { opacity: 0.15 }, data: series.measured },
      ],
    };
  }, [data, empty, series, span, t, i18n.language]);
  return (
    <Card
      title={t('power.chart')}
      style={{ marginBottom: 16 }}
      extra={
        <Segmented<SpanKey>
          value={span}
          onChange={setSpan}
          options={SPANS.map((s) => ({ value: s.key, label: t(`power.span.${s.key}`) }))}
          data-testid="site-power-span"
        />
      }
    >
      <div data-testid="site-power-chart" data-span={span} data-empty={empty ? '1' : '0'} data-points={data?.samples.length ?? 0}>
        {q.isPending ? (
          <div style={{ height: HEIGHT }}>
            <Skeleton active paragraph={{ rows: 6 }} />
          </div>
        ) : empty || !option ? (
          <div style={{ height: HEIGHT, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chart.empty')} />
          </div>
        ) : (
          <ChartCanvas option={option} height={HEIGHT} />
        )}
      </div>
    </Card>
  );
}
