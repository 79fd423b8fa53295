/**
 * A site's statistics (site/stats, docs/dashboards.md): devices by status (each slice opens the
 * device list), devices in alarm and open alarms, availability, charging traffic over a chosen
 * range (default this month: sessions and faults as bars, energy as a line, charging time; the
 * two stacked charts share one grid and x axis, days after today are not drawn) and the
 * cumulative figures. Refetched at most once a second after a status change of one of the
 * site's devices; polled every 30 s while the stream is down.
 */
import { useMemo, useState } from 'react';
import { Card, Col, Row, Space, Typography } from 'antd';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { BarChart, barsEmpty, PeriodPicker, PieChart, type BarSeries } from '../../components/charts';
import { useLiveRefresh } from '../../hooks/useLiveRefresh';
import { siteStats, type SiteFigures } from '../../services/stats';
import { formatCount, formatDuration, formatEnergy } from '../../utils/format';
import { currentPeriod, stepOf, type PeriodValue } from '../../utils/period';
import { getTimeZone } from '../../utils/time';
import { availabilityText, deviceListHref, formatKWh, STACK_GRID, statusSlices, trafficPoints } from './stats';
import Figure from '../../components/Figure';
import { siteKeys } from '../../services/site';

/** Sessions, energy, charging time and faults, as four figures. */
function Figures({ f, prefix }: { f: SiteFigures | undefined; prefix: 'total' | 'cumulative' }) {
  const { t } = useTranslation();
  return (
    <Row gutter={[16, 16]}>
      <Col xs={12} md={6}>
        <Figure testId={`site-${prefix}-sessions`} title={t('stats.sessions')} value={formatCount(f?.sessions)} />
      </Col>
      <Col xs={12} md={6}>
        <Figure testId={`site-${prefix}-energy`} title={t('stats.energy')} value={formatEnergy(f?.energyWh)} />
      </Col>
      <Col xs={12} md={6}>
        <Figure testId={`site-${prefix}-charge-time`} title={t('stats.chargeTime')} value={formatDuration(f?.chargeMs)} />
      </Col>
      <Col xs={12} md={6}>
        <Figure testId={`site-${prefix}-faults`} title={t('stats.faults')} value={formatCount(f?.faults)} />
      </Col>
    </Row>
  );
}

export default function SiteStats({ siteId }: { siteId: number }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const tz = getTimeZone();
  const [range, setRange] = useState<PeriodValue>(() => currentPeriod('month'));
  const { pollMs } = useLiveRefresh(
    () => qc.invalidateQueries({ queryKey: siteKeys.stats(siteId) }),
    (n) => n.siteId === siteId,
  );
  const q = useQuery({
    queryKey: siteKeys.statsOf(siteId, range.start, range.end),
    queryFn: () => siteStats({ id: siteId, start: range.start, end: range.end }),
    placeholderData: keepPreviousData,
    refetchInterval: pollMs,
    retry: false,
  });
  const s = q.data;
  const slices = useMemo(() => statusSlices(s?.byStatus, (st) => t(`device.status.${st}`)), [s?.byStatus, t]);
  // buckets after now carry no figures (not zeros); recomputed with each answer
  const points = useMemo(() => trafficPoints(s?.buckets, Date.now()), [s?.buckets]);
  const loading = q.isPending;
  const step = s?.step ?? stepOf(range.start, range.end);
  const trafficSeries = useMemo<BarSeries[]>(
    () => [
      { key: 'sessions', name: t('stats.sessions'), axis: 0, color: '#1677ff' },
      { key: 'faults', name: t('stats.faults'), axis: 0, color: '#ff7875' },
      { key: 'energyKWh', name: t('stats.energyKWh'), axis: 1, format: (v) => formatKWh(v, i18n.language), color: '#52c41a' },
    ],
    [t, i18n.language],
  );
  const timeSeries = useMemo<BarSeries[]>(() => [{ key: 'chargeHours', name: t('stats.chargeTime'), color: '#722ed1', format: (v) => formatDuration(v * 3_600_000) }], [t]);

  return (
    <div data-testid="site-stats">
      <Space style={{ width: '100%', justifyContent: 'flex-end', marginBottom: 16 }} wrap>
        <PeriodPicker value={range} onChange={setRange} tz={tz} testId="site-period" />
      </Space>
      <Card title={t('stats.site.status')} style={{ marginBottom: 16 }}>
        <Row gutter={[16, 16]} align="middle">
          <Col xs={24} md={10}>
            <PieChart
              slices={slices}
              loading={loading}
              title={t('stats.site.byStatus')}
              onSelect={(key) => void navigate(deviceListHref(siteId, Number(key)))}
              testId="site-status-pie"
            />
          </Col>
          <Col xs={24} md={14}>
            <Row gutter={[16, 24]}>
              <Col xs={12}>
                <Figure testId="site-devices" title={t('stats.site.devices')} value={formatCount(s?.devices)} />
              </Col>
              <Col xs={12}>
                <Figure
                  testId="site-availability"
                  title={t('stats.site.availability')}
                  hint={t('stats.site.availabilityHint')}
                  value={s ? availabilityText(s.availability) : '-'}
                />
              </Col>
              <Col xs={12}>
                <Figure
                  testId="site-devices-in-alarm"
                  title={t('stats.site.devicesInAlarm')}
                  hint={t('stats.site.devicesInAlarmHint')}
                  value={formatCount(s?.devicesInAlarm)}
                />
              </Col>
              <Col xs={12}>
                <Figure testId="site-open-alarms" title={t('stats.site.openAlarms')} hint={t('stats.site.openAlarmsHint')} value={formatCount(s?.openAlarms)} />
              </Col>
            </Row>
          </Col>
        </Row>
      </Card>
      <Card title={t('stats.site.traffic')} style={{ marginBottom: 16 }}>
        <BarChart buckets={points} series={trafficSeries} step={step} tz={tz} loading={loading} testId="site-traffic-chart" align={STACK_GRID} group={`site-traffic-${siteId}`} />
        {!barsEmpty(points, timeSeries) && (
          <BarChart buckets={points} series={timeSeries} step={step} tz={tz} height={200} testId="site-charge-time-chart" align={STACK_GRID} group={`site-traffic-${siteId}`} />
        )}
        <Typography.Title level={5} style={{ marginTop: 16 }}>
          {t('stats.site.totals')}
        </Typography.Title>
        <Figures f={s?.total} prefix="total" />
      </Card>
      <Card
        title={s ? t('stats.site.cumulative', { since: dayjs(s.cumulative.since).tz(tz).format('YYYY-MM-DD') }) : t('stats.site.cumulative', { since: '-' })}
        style={{ marginBottom: 16 }}
      >
        <Figures f={s?.cumulative} prefix="cumulative" />
      </Card>
    </div>
  );
}
