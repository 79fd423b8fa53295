/**
 * The chargers in the site's plan, as GET site/power answers them (read every 5 s by the tab):
 * each session's allocation in A and kW and whether the charger applied it (refused in red with
 * the charger's or the server's message), and what it draws. A 0 A allocation is a pause.
 */
import { Card, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DEVICE_READ_KEYS } from '../../../access';
import { useCan } from '../../../components/access';
import { useOcppName } from '../../../components/fleet';
import { ALLOC_COLORS, formatA, formatKw, messageText, type ChargerAllocation } from '../../../services/power';
import { formatTime } from '../../../utils/time';
import { isPaused } from './sitePower';

export default function ChargersTable({ rows, loading }: { rows: ChargerAllocation[]; loading: boolean }) {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const ocpp = useOcppName();
  const msg = (m: string) => messageText(m, t, (k) => i18n.exists(k));
  const columns: ColumnsType<ChargerAllocation> = [
    {
      title: t('device.sn'),
      dataIndex: 'sn',
      key: 'sn',
      render: (v: string, r) => (
        <span title={r.name}>{can(DEVICE_READ_KEYS) ? <Link to={`/manage/device/detail/${r.deviceId}/smart`}>{v}</Link> : v}</span>
      ),
    },
    { title: t('power.col.connector'), dataIndex: 'connectorId', key: 'connectorId', width: 90 },
    { title: t('power.col.session'), dataIndex: 'transactionId', key: 'transactionId', render: (v: number) => (v ? v : '-') },
    { title: t('power.col.status'), dataIndex: 'status', key: 'status', render: (v: string) => (v ? <span title={v}>{ocpp('connector', v)}</span> : '-') },
    {
      title: t('power.col.phases'),
      key: 'phases',
      render: (_: unknown, r) => (r.phases === 1 ? t('power.phases.1', { phase: r.phase || 1 }) : t('power.phases.3')),
    },
    { title: t('power.col.priority'), dataIndex: 'priority', key: 'priority', width: 80 },
    {
      title: t('power.col.allocA'),
      dataIndex: 'limitA',
      key: 'limitA',
      render: (v: number, r) =>
        !r.transactionId ? (
          '-'
        ) : isPaused(v) ? (
          <Tag color="warning" data-testid="site-power-paused">
            {t('power.paused')}
          </Tag>
        ) : (
          formatA(v, i18n.language)
        ),
    },
    {
      title: t('power.col.allocKw'),
      dataIndex: 'limitW',
      key: 'limitW',
      render: (v: number, r) => (r.transactionId ? formatKw(v, i18n.language) : '-'),
    },
    {
      title: t('power.col.state'),
      dataIndex: 'state',
      key: 'state',
      render: (v: number, r) => {
        // a charger without a session is in the plan only with its fallback: nothing to apply
        if (!r.transactionId) return <Tag data-testid="site-power-state" data-state="idle">{t('power.state.idle')}</Tag>;
        const tag = (
          <Tag color={ALLOC_COLORS[v] ?? 'default'} data-testid="site-power-state" data-state={v}>
            {t(`power.state.${v}`, { defaultValue: String(v) })}
          </Tag>
        );
        const text = msg(r.message);
        if (!text) return tag;
        return v === 2 ? (
          <span>
            {tag}
            <Typography.Text type="danger" data-testid="site-power-message">
              {text}
            </Typography.Text>
          </span>
        ) : (
          <Tooltip title={text}>{tag}</Tooltip>
        );
      },
    },
    { title: t('power.col.measured'), dataIndex: 'actualW', key: 'actualW', render: (v: number) => formatKw(v, i18n.language) },
    { title: t('power.col.updated'), dataIndex: 'updatedAt', key: 'updatedAt', render: (v: number) => formatTime(v) },
  ];
  return (
    <Card title={t('power.chargers')} style={{ marginBottom: 16 }}>
      <Table<ChargerAllocation>
        rowKey={(r) => `${r.deviceId}/${r.connectorId}`}
        size="small"
        loading={loading}
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('power.noChargers') }}
        data-testid="site-power-chargers"
        rowClassName={(r) => (r.transactionId && isPaused(r.limitA) ? 'site-power-paused-row' : '')}
      />
    </Card>
  );
}
