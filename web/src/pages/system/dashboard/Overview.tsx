/**
 * The system dashboard's overview (system/overview and home/events, docs/dashboards.md): users,
 * customers, device models by type and devices within the caller's scope; the node's own system
 * figures (root and platform roles only: hidden when `system` is null); the recent system events.
 * Refreshed every 30 s and after status changes (at most once a second).
 */
import { DEVICE_READ_KEYS } from '../../../access';
import { useMemo, type ReactNode } from 'react';
import { Badge, Card, Col, Descriptions, Progress, Row, Space, Statistic, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PieChart } from '../../../components/charts';
import { useCan } from '../../../components/access';
import { EventName, KindTag, LevelTag } from '../../../components/fleet';
import { useLiveRefresh } from '../../../hooks/useLiveRefresh';
import { homeEvents, systemOverview, type HomeEvent, type SystemNode } from '../../../services/stats';
import { formatBytes, formatCount, formatDuration } from '../../../utils/format';
import { formatTime } from '../../../utils/time';
import { customerFigures, modelTypeCounts, OVERVIEW_REFRESH_MS, queueUse, SYSTEM_EVENTS, type CustomerFigure } from './overview';
import QueryTable from '../../../components/QueryTable';
import { systemKeys } from '../../../services/system';

/** The database kinds' own names (product names, not translated). */
const DATABASE_NAMES: Record<string, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

const CUSTOMER_LABELS: Record<CustomerFigure, string> = {
  enabled: 'stats.sys.enabled',
  disabled: 'stats.sys.disabled',
  platform: 'customer.platform',
  readOnly: 'customer.readOnly',
};

function Figure({ title, value, testId }: { title: string; value: ReactNode; testId?: string }) {
  return (
    <div data-testid={testId}>
      <Statistic title={title} value={value as string} />
    </div>
  );
}

function Events() {
  const { t } = useTranslation();
  const can = useCan();
  const q = useQuery({
    queryKey: systemKeys.eventsOf(SYSTEM_EVENTS.limit),
    queryFn: () => homeEvents(SYSTEM_EVENTS),
    refetchInterval: OVERVIEW_REFRESH_MS,
    retry: false,
  });
  const columns: ColumnsType<HomeEvent> = [
    { title: t('stats.sys.eventTime'), dataIndex: 'startedAt', key: 'startedAt', render: (v: number) => formatTime(v) },
    {
      title: t('device.sn'),
      dataIndex: 'sn',
      key: 'sn',
      render: (v: string, r) => (can(DEVICE_READ_KEYS) ? <Link to={`/manage/device/detail/${r.deviceId}`}>{v}</Link> : v),
    },
    {
      title: t('stats.sys.eventKind'),
      dataIndex: 'kind',
      key: 'kind',
      render: (v: number) => <KindTag kind={v} />,
    },
    { title: t('event.level'), dataIndex: 'level', key: 'level', render: (v: number, r) => (r.kind === 1 || r.kind === 2 ? <LevelTag level={v} /> : '-') },
    { title: t('event.name'), key: 'name', render: (_: unknown, r) => <EventName code={r.code} name={r.name} vendorCode={r.vendorCode} /> },
    {
      title: t('stats.sys.eventState'),
      dataIndex: 'status',
      key: 'status',
      render: (v: number) => <Badge status={v === 0 ? 'error' : 'default'} text={t(`stats.sys.state.${v}`)} />,
    },
  ];
  return (
    <Card title={t('stats.sys.events')} data-testid="system-events" style={{ marginBottom: 16 }}>
      <QueryTable<HomeEvent> query={q}
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={q.data?.list ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
    </Card>
  );
}

export default function SystemOverview() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  useLiveRefresh(() => {
    void qc.invalidateQueries({ queryKey: systemKeys.overview });
    void qc.invalidateQueries({ queryKey: systemKeys.events });
  });
  const q = useQuery({ queryKey: systemKeys.overview, queryFn: systemOverview, refetchInterval: OVERVIEW_REFRESH_MS, retry: false });
  const o = q.data;
  const sys = o?.system ?? null;
  const slices = useMemo(
    () => modelTypeCounts(o?.models.byType).map((m) => ({ key: String(m.type), name: t(`model.type.${m.type}`, { defaultValue: String(m.type) }), value: m.count })),
    [o?.models.byType, t],
  );
  const queue = sys ? queueUse(sys.queueDepth, sys.queueCapacity, i18n.language) : null;
  const nodeColumns: ColumnsType<SystemNode> = [
    { title: t('stats.sys.node'), dataIndex: 'id', key: 'id' },
    { title: t('stats.sys.connected'), dataIndex: 'connected', key: 'connected', render: (v: number) => formatCount(v) },
    { title: t('stats.sys.seenAt'), dataIndex: 'seenAt', key: 'seenAt', render: (v: number) => formatTime(v) },
  ];
  const loading = q.isPending;

  return (
    <div data-testid="system-overview">
      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        <Col xs={24} lg={12}>
          <Card title={t('stats.sys.users')} loading={loading} data-testid="system-users" style={{ height: '100%' }}>
            <Row gutter={[16, 16]}>
              <Col xs={12} md={6}>
                <Figure title={t('stats.sys.total')} value={formatCount(o?.users.total)} testId="system-users-total" />
              </Col>
              <Col xs={12} md={6}>
                <Figure title={t('stats.sys.enabled')} value={formatCount(o?.users.enabled)} testId="system-users-enabled" />
              </Col>
              <Col xs={12} md={6}>
                <Figure title={t('stats.sys.disabled')} value={formatCount(o?.users.disabled)} testId="system-users-disabled" />
              </Col>
              <Col xs={12} md={6}>
                <Figure title={t('stats.sys.locked')} value={formatCount(o?.users.locked)} testId="system-users-locked" />
              </Col>
            </Row>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('stats.sys.customers')} loading={loading} data-testid="system-customers" style={{ height: '100%' }}>
            <Row gutter={[16, 16]}>
              <Col xs={8}>
                <Figure title={t('stats.sys.total')} value={formatCount(o?.customers.total)} testId="system-customers-total" />
              </Col>
              {customerFigures(o?.customers).map((f) => (
                <Col xs={8} key={f.key}>
                  <Figure title={t(CUSTOMER_LABELS[f.key])} value={formatCount(f.value)} testId={`system-customers-${f.key}`} />
                </Col>
              ))}
            </Row>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('stats.sys.models')} data-testid="system-models" style={{ height: '100%' }}>
            <Row gutter={[16, 16]} align="middle">
              <Col xs={24} md={8}>
                <Figure title={t('stats.sys.total')} value={formatCount(o?.models.total)} testId="system-models-total" />
              </Col>
              <Col xs={24} md={16}>
                <PieChart slices={slices} loading={loading} title={t('stats.sys.modelsByType')} height={200} testId="system-models-pie" />
              </Col>
            </Row>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('stats.sys.devices')} loading={loading} data-testid="system-devices" style={{ height: '100%' }}>
            <Row gutter={[16, 16]}>
              <Col xs={12}>
                <Figure title={t('stats.sys.total')} value={formatCount(o?.devices.total)} testId="system-devices-total" />
              </Col>
              <Col xs={12}>
                <Figure title={t('stats.sys.online')} value={formatCount(o?.devices.online)} testId="system-devices-online" />
              </Col>
            </Row>
          </Card>
        </Col>
      </Row>
      {sys && (
        <Card title={t('stats.sys.info')} data-testid="system-info" style={{ marginBottom: 16 }}>
          <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }}>
            <Descriptions.Item label={t('stats.sys.version')}><span translate="no">{sys.version || '-'}</span></Descriptions.Item>
            <Descriptions.Item label={t('stats.sys.node')}>{sys.node || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('stats.sys.uptime')}>
              <span title={formatTime(sys.startedAt)} data-testid="system-uptime">
                {formatDuration(sys.uptimeMs)}
              </span>
            </Descriptions.Item>
            <Descriptions.Item label={t('stats.sys.database')}>
              <span translate="no">{DATABASE_NAMES[sys.database] ?? (sys.database || '-')}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('stats.sys.databaseSize')}>{formatBytes(sys.databaseBytes)}</Descriptions.Item>
            <Descriptions.Item label={t('stats.sys.connected')}>{formatCount(sys.connected)}</Descriptions.Item>
            <Descriptions.Item label={t('stats.sys.inbound')}>
              {new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(sys.inboundPerSec ?? 0)}
            </Descriptions.Item>
            <Descriptions.Item label={t('stats.sys.queue')}>
              <Space>
                <span data-testid="system-queue">{queue?.text}</span>
                <Progress percent={queue?.percent ?? 0} size="small" showInfo={false} style={{ width: 80, margin: 0 }} />
              </Space>
            </Descriptions.Item>
          </Descriptions>
          {sys.nodes && sys.nodes.length > 1 && (
            <Table<SystemNode>
              rowKey="id"
              size="small"
              style={{ marginTop: 16 }}
              title={() => t('stats.sys.nodes')}
              columns={nodeColumns}
              dataSource={sys.nodes}
              pagination={false}
              data-testid="system-nodes"
            />
          )}
        </Card>
      )}
      <Events />
    </div>
  );
}
