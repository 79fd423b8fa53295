/** The newest events in scope (home/events, 10): time, device, site, kind, level, name, state. */
import type { HTMLAttributes } from 'react';
import { Badge, Button, Card, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EventName, KindTag, LevelTag } from '../../components/fleet';
import type { HomeEvent } from '../../services/stats';
import { formatTime } from '../../utils/time';

export interface RecentEventsProps {
  list: HomeEvent[] | undefined;
  loading: boolean;
  canDevice: boolean;
  canSite: boolean;
  /** Opens the full event list; absent: no "more" link. */
  onMore?: () => void;
}

export default function RecentEvents({ list, loading, canDevice, canSite, onMore }: RecentEventsProps) {
  const { t } = useTranslation();
  const columns: ColumnsType<HomeEvent> = [
    { title: t('home.time'), dataIndex: 'startedAt', key: 'startedAt', render: (v: number) => <span style={{ whiteSpace: 'nowrap' }}>{formatTime(v)}</span> },
    {
      title: t('device.sn'),
      dataIndex: 'sn',
      key: 'sn',
      // long SNs and site names are cut (whole in the title) so the alarm stays in view at 1366 px
      render: (v: string, r) => (
        <div className="cell-ellipsis" style={{ maxWidth: 200 }} title={v}>
          {canDevice ? <Link to={`/manage/device/detail/${r.deviceId}`}>{v}</Link> : v}
        </div>
      ),
    },
    {
      title: t('device.site'),
      dataIndex: 'siteName',
      key: 'siteName',
      render: (v: string | undefined, r) => (
        <div className="cell-ellipsis" style={{ maxWidth: 200 }} title={v}>
          {v && r.siteId && canSite ? <Link to={`/manage/site/detail/${r.siteId}`}>{v}</Link> : v || '-'}
        </div>
      ),
    },
    { title: t('event.kind'), dataIndex: 'kind', key: 'kind', render: (v: number) => <KindTag kind={v} /> },
    { title: t('event.level'), dataIndex: 'level', key: 'level', render: (v: number, r) => (r.kind === 1 || r.kind === 2 ? <LevelTag level={v} /> : '-') },
    { title: t('event.name'), key: 'name', render: (_: unknown, r) => <EventName code={r.code} name={r.name} vendorCode={r.vendorCode} /> },
    {
      title: t('event.status'),
      dataIndex: 'status',
      key: 'status',
      render: (v: number) => <Badge status={v === 0 ? 'error' : 'default'} text={t(`event.status.${v}`)} />,
    },
  ];
  return (
    <Card
      title={t('home.recentEvents')}
      extra={
        onMore && (
          <Button type="link" size="small" onClick={onMore} data-testid="home-recent-more">
            {t('com_more')}
          </Button>
        )
      }
    >
      <div data-testid="home-recent-events">
        <Table<HomeEvent>
          rowKey="id"
          size="small"
          pagination={false}
          loading={loading}
          columns={columns}
          dataSource={list ?? []}
          scroll={{ x: 'max-content' }}
          onRow={(r) => ({ 'data-testid': `home-recent-event-${r.id}`, 'data-status': r.status }) as HTMLAttributes<HTMLTableRowElement>}
        />
      </div>
    </Card>
  );
}
