/** A device's reservations, newest first, with their state (docs/gateway.md, "Reservations"). */
import { useState } from 'react';
import { Card, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listReservations, opsKeys, RESERVATION_COLORS, type Reservation } from '../../../services/ops';
import { formatTime } from '../../../utils/time';
import QueryTable from '../../../components/QueryTable';

const PAGE_SIZE = 10;

export default function ReservationList({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useQuery({ queryKey: opsKeys.reservationPage(deviceId, page), queryFn: () => listReservations(deviceId, page, PAGE_SIZE) });
  const columns: ColumnsType<Reservation> = [
    { title: t('ops.res.id'), dataIndex: 'id', key: 'id', width: 110 },
    { title: t('ops.connector'), dataIndex: 'connectorId', key: 'connectorId', width: 90 },
    { title: t('ops.idTag'), dataIndex: 'idTag', key: 'idTag' },
    { title: t('ops.res.expires'), dataIndex: 'expiresAt', key: 'expiresAt', render: (v: number) => formatTime(v) },
    {
      title: t('ops.status'),
      dataIndex: 'status',
      key: 'status',
      render: (v: string) => (
        <Tag color={RESERVATION_COLORS[v]} data-testid="ops-reservation-status">
          {t(`ops.res.status.${v}`)}
        </Tag>
      ),
    },
    { title: t('ops.res.by'), dataIndex: 'userName', key: 'userName' },
    { title: t('ops.res.created'), dataIndex: 'createdAt', key: 'createdAt', render: (v: number) => formatTime(v) },
  ];
  return (
    <Card title={t('ops.reservations')} size="small" data-testid="ops-reservations">
      <QueryTable<Reservation> query={list}
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list.data?.list ?? []}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
      />
    </Card>
  );
}
