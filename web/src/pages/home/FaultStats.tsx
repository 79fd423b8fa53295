/**
 * Fault statistics over a period: faults started per bucket and kind (stacked bars), the
 * totals, and the sites and devices with most faults. Bars and totals open the events behind
 * them; ranked sites and devices open their detail pages.
 */
import { useMemo } from 'react';
import { Card, Col, Row, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BarChart, PeriodPicker, type BarSeries } from '../../components/charts';
import { FAULT_KINDS, type FaultDeviceRank, type FaultSiteRank, type HomeFaults } from '../../services/stats';
import { formatCount } from '../../utils/format';
import { bucketEnd, bucketText, rangeText, stepOf, type PeriodValue } from '../../utils/period';
import { KIND_COLORS, startedEvents, type EventFilter } from './figures';

/** The rankings' count column: always in view; long names are cut with an ellipsis (the whole name in the cell's title). */
const COUNT_WIDTH = 80;

export interface FaultStatsProps {
  period: PeriodValue;
  onPeriod(p: PeriodValue): void;
  data: HomeFaults | undefined;
  loading: boolean;
  tz: string;
  canEvents: boolean;
  canSite: boolean;
  canDevice: boolean;
  openEvents(title: string, filter: EventFilter): void;
}

function RankCount({ testId, value }: { testId: string; value: number }) {
  return (
    <span data-testid={testId} data-value={value}>
      {formatCount(value)}
    </span>
  );
}

export default function FaultStats({ period, onPeriod, data, loading, tz, canEvents, canSite, canDevice, openEvents }: FaultStatsProps) {
  const { t } = useTranslation();
  // the answer's range and step (start moved back to its bucket); the asked ones until it comes
  const start = data?.start ?? period.start;
  const end = data?.end ?? period.end;
  const step = data?.step ?? stepOf(period.start, period.end);
  const kindName = (k: string) => t(`event.kind.${FAULT_KINDS.indexOf(k as never)}`);
  const series = useMemo<BarSeries[]>(
    () => FAULT_KINDS.map((k, i) => ({ key: k, name: t(`event.kind.${i}`), color: KIND_COLORS[k], stack: 'faults' })),
    [t],
  );
  const onBar = (time: number, key?: string) => {
    const to = bucketEnd(time, step, tz);
    const when = bucketText(time, step, tz);
    const title = key ? t('home.drawer.bucket', { kind: kindName(key), time: when }) : t('home.drawer.allKinds', { time: when });
    openEvents(title, startedEvents(time, to, key));
  };
  const onTotal = (key: string) => openEvents(t('home.drawer.bucket', { kind: kindName(key), time: rangeText(start, end, tz) }), startedEvents(start, end, key));

  const siteColumns: ColumnsType<FaultSiteRank> = [
    { title: t('home.rank.no'), key: 'no', width: 56, render: (_: unknown, __, i) => i + 1 },
    {
      title: t('device.site'),
      dataIndex: 'name',
      key: 'name',
      ellipsis: true,
      render: (v: string, r) => (canSite ? <Link to={`/manage/site/detail/${r.siteId}`}>{v}</Link> : v),
    },
    { title: t('device.customer'), dataIndex: 'customerName', key: 'customerName', ellipsis: true },
    { title: t('home.rank.count'), dataIndex: 'count', key: 'count', align: 'right', width: COUNT_WIDTH, render: (v: number, r) => <RankCount testId={`home-rank-sites-${r.siteId}`} value={v} /> },
  ];
  const deviceColumns: ColumnsType<FaultDeviceRank> = [
    { title: t('home.rank.no'), key: 'no', width: 56, render: (_: unknown, __, i) => i + 1 },
    {
      title: t('device.sn'),
      dataIndex: 'sn',
      key: 'sn',
      ellipsis: true,
      render: (v: string, r) => (canDevice ? <Link to={`/manage/device/detail/${r.deviceId}`}>{v}</Link> : v),
    },
    { title: t('device.name'), dataIndex: 'name', key: 'name', ellipsis: true },
    { title: t('device.site'), dataIndex: 'siteName', key: 'siteName', ellipsis: true },
    { title: t('home.rank.count'), dataIndex: 'count', key: 'count', align: 'right', width: COUNT_WIDTH, render: (v: number, r) => <RankCount testId={`home-rank-devices-${r.deviceId}`} value={v} /> },
  ];

  return (
    <Card
      title={
        <Space direction="vertical" size={0}>
          <span>{t('home.faultStats')}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal' }}>
            {t('home.faultStats.hint')}
          </Typography.Text>
        </Space>
      }
      extra={<PeriodPicker value={period} onChange={onPeriod} tz={tz} testId="home-period" />}
      styles={{ header: { flexWrap: 'wrap', rowGap: 8, paddingBlock: 8 } }}
    >
      <Space wrap style={{ marginBottom: 8 }} data-testid="home-fault-totals">
        <Typography.Text type="secondary">{`${rangeText(start, end, tz)} · ${t('chart.total')}:`}</Typography.Text>
        {FAULT_KINDS.map((k) => {
          const v = data?.total?.[k] ?? 0;
          return (
            <Tag
              key={k}
              color={KIND_COLORS[k]}
              data-testid={`home-fault-total-${k}`}
              data-value={data ? v : ''}
              onClick={canEvents ? () => onTotal(k) : undefined}
              style={{ cursor: canEvents ? 'pointer' : undefined }}
            >
              {`${kindName(k)} ${data ? formatCount(v) : '-'}`}
            </Tag>
          );
        })}
      </Space>
      <BarChart
        buckets={data?.buckets ?? []}
        series={series}
        step={step}
        tz={tz}
        loading={loading}
        onSelect={canEvents ? onBar : undefined}
        testId="home-fault-chart"
      />
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <Col xs={24} lg={12}>
          <Typography.Title level={5}>{t('home.rank.sites')}</Typography.Title>
          <div data-testid="home-rank-sites">
          <Table<FaultSiteRank>
            rowKey="siteId"
            size="small"
            pagination={false}
            loading={loading}
            columns={siteColumns}
            dataSource={data?.sites ?? []}
            tableLayout="fixed"
          />
          </div>
        </Col>
        <Col xs={24} lg={12}>
          <Typography.Title level={5}>{t('home.rank.devices')}</Typography.Title>
          <div data-testid="home-rank-devices">
          <Table<FaultDeviceRank>
            rowKey="deviceId"
            size="small"
            pagination={false}
            loading={loading}
            columns={deviceColumns}
            dataSource={data?.devices ?? []}
            tableLayout="fixed"
          />
          </div>
        </Col>
      </Row>
    </Card>
  );
}
