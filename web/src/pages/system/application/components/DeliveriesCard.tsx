/**
 * The delivery log of an application's webhooks (docs/webhooks.md): newest first, filtered by
 * status; each row's time, event, webhook, status, attempts and the last HTTP status or error.
 */
import { useState } from 'react';
import { Button, Card, Select, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DELIVERY_STATUSES, listDeliveries, webhookKeys, type Delivery } from '../../../../services/webhook';
import { formatTime } from '../../../../utils/time';
import QueryTable from '../../../../components/QueryTable';

const STATUS_COLOR: Record<string, string> = { pending: 'processing', delivered: 'success', failed: 'error' };

export default function DeliveriesCard({ appId }: { appId: number }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<string>();
  const [page, setPage] = useState({ page: 1, pageSize: 10 });
  const query = { status: status ?? '', ...page };
  const q = useQuery({
    queryKey: webhookKeys.deliveries(appId, query),
    queryFn: () => listDeliveries({ appId, ...query }),
    placeholderData: keepPreviousData,
  });
  const columns: ColumnsType<Delivery> = [
    { title: t('app.delivery.time'), dataIndex: 'createdAt', key: 'createdAt', width: 170, render: (v: number) => formatTime(v) },
    { title: t('app.webhook.event'), dataIndex: 'event', key: 'event', render: (v: string) => t(`app.webhook.event.${v}`, { defaultValue: v }) },
    {
      title: t('app.webhook.url'),
      dataIndex: 'url',
      key: 'url',
      ellipsis: true,
      render: (v: string) => v || <Typography.Text type="secondary">{t('app.delivery.webhookGone')}</Typography.Text>,
    },
    {
      title: t('app.delivery.status'),
      dataIndex: 'status',
      key: 'status',
      width: 110,
      render: (v: string) => <Tag color={STATUS_COLOR[v]}>{t(`app.delivery.status.${v}`, { defaultValue: v })}</Tag>,
    },
    { title: t('app.delivery.attempts'), dataIndex: 'attempts', key: 'attempts', width: 90 },
    {
      title: t('app.delivery.last'),
      key: 'last',
      render: (_: unknown, d) => (
        <Space direction="vertical" size={0}>
          {d.lastStatus > 0 && <span>HTTP {d.lastStatus}</span>}
          {d.lastError && (
            <Typography.Text type="danger" ellipsis={{ tooltip: d.lastError }} style={{ maxWidth: 320 }}>
              {d.lastError}
            </Typography.Text>
          )}
          {d.status === 'pending' && d.attempts > 0 && <Typography.Text type="secondary">{t('app.delivery.next', { time: formatTime(d.nextAt) })}</Typography.Text>}
          {d.status === 'delivered' && <Typography.Text type="secondary">{formatTime(d.deliveredAt)}</Typography.Text>}
        </Space>
      ),
    },
  ];
  return (
    <Card
      title={t('app.delivery.title')}
      style={{ marginTop: 16 }}
      data-testid="webhook-deliveries"
      extra={
        <Space>
          <Select
            allowClear
            placeholder={t('app.delivery.status')}
            style={{ width: 140 }}
            value={status}
            onChange={(v?: string) => {
              setStatus(v);
              setPage((p) => ({ ...p, page: 1 }));
            }}
            options={DELIVERY_STATUSES.map((s) => ({ value: s, label: t(`app.delivery.status.${s}`) }))}
          />
          <Button onClick={() => void q.refetch()}>{t('app.delivery.refresh')}</Button>
        </Space>
      }
    >
      <QueryTable<Delivery> query={q}
        size="small"
        rowKey="id"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        columns={columns}
        scroll={{ x: 900 }}
        pagination={{
          current: page.page,
          pageSize: page.pageSize,
          total: q.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          onChange: (p, s) => setPage({ page: p, pageSize: s }),
        }}
      />
    </Card>
  );
}
