/**
 * The unit's history (POST dev/data/series, connector 0, one call for the four values): SoC in %
 * and battery, grid and load power in kW over the last 1 h / 6 h / 24 h / 7 d (the step fitted to
 * the range, utils/charts defaultStep), read again every 60 s. The ECharts canvas comes after
 * the tab (components/charts ChartCanvas), as on the site Power tab.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { Card, Empty, Segmented, Skeleton, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import ChartCanvas from '../../../components/charts/ChartCanvas';
import { fleetKeys, getSeries } from '../../../services/fleet';
import { defaultStep } from '../../../utils/charts';
import { formatTime, getTimeZone } from '../../../utils/time';
import { CHART_NAMES, hasPoints, powerOption, socOption, SPANS, spanMs, storageLines, type ChartTexts, type SpanKey } from './chart';

const HEIGHT = 260;
const REFETCH_MS = 60_000;

export default function StorageCharts({ deviceId }: { deviceId: number }) {
  const { t, i18n } = useTranslation();
  const [span, setSpan] = useState<SpanKey>('6h');
  const q = useQuery({
    queryKey: fleetKeys.series(deviceId, 'storage', span),
    queryFn: async () => {
      const end = Date.now();
      const start = end - spanMs(span);
      const series = await getSeries({ deviceId, names: CHART_NAMES, connectorId: 0, startTime: start, endTime: end, step: defaultStep(spanMs(span)) });
      return { range: [start, end] as [number, number], series };
    },
    placeholderData: keepPreviousData,
    refetchInterval: REFETCH_MS,
  });
  const lines = useMemo(() => storageLines(q.data?.series), [q.data]);
  const empty = !!q.data && !hasPoints(lines);
  const options = useMemo(() => {
    if (!q.data || empty) return null;
    const tz = getTimeZone();
    const fmt = spanMs(span) > 24 * 3_600_000 ? 'MM-DD HH:mm' : 'HH:mm';
    const nf = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
    const texts: ChartTexts = {
      soc: t('ess.chart.soc'),
      battery: t('ess.chart.battery'),
      grid: t('ess.chart.grid'),
      load: t('ess.chart.load'),
      axisTime: (v) => dayjs(v).tz(tz).format(fmt),
      tooltipTime: (v) => formatTime(v),
      num: (v) => nf.format(v),
    };
    return { soc: socOption(lines, q.data.range, texts), power: powerOption(lines, q.data.range, texts) };
  }, [q.data, empty, lines, span, t, i18n.language]);
  const box = (child: ReactNode) => <div style={{ height: HEIGHT, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>{child}</div>;
  return (
    <Card
      title={t('ess.charts')}
      style={{ marginBottom: 16 }}
      extra={
        <Segmented<SpanKey>
          value={span}
          onChange={setSpan}
          options={SPANS.map((s) => ({ value: s.key, label: t(`chart.quick.${s.key}`) }))}
          data-testid="storage-chart-span"
        />
      }
    >
      <div
        data-testid="storage-charts"
        data-span={span}
        data-empty={empty ? '1' : '0'}
        data-points={`${lines.soc.length}/${lines.battery.length}/${lines.grid.length}/${lines.load.length}`}
      >
        {q.isPending ? (
          <div style={{ height: HEIGHT }}>
            <Skeleton active paragraph={{ rows: 6 }} />
          </div>
        ) : empty || !options ? (
          box(<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chart.empty')} />)
        ) : (
          <>
            <div data-testid="storage-chart-soc">
              <ChartCanvas option={options.soc} height={HEIGHT} group={`storage-${deviceId}`} />
            </div>
            <div data-testid="storage-chart-power" style={{ marginTop: 16 }}>
              <ChartCanvas option={options.power} height={HEIGHT} group={`storage-${deviceId}`} />
            </div>
            <Typography.Text type="secondary">{t('ess.chart.powerHint')}</Typography.Text>
          </>
        )}
      </div>
    </Card>
  );
}
