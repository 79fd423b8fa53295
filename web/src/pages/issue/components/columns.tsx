/** The ticket list's columns, shared by the tickets screen and a device's Issues tab. */
import { Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import type { TFunction } from 'i18next';
import type { TicketRow } from '../../../services/ticket';
import { formatTime } from '../../../utils/time';
import { CategoryLabel, PriorityTag, StateTag } from './labels';
import { registerTexts } from '../../../locales/domains';
import { ticketTexts } from '../../../locales/domains/ticket';

registerTexts(ticketTexts);

export function ticketColumns(t: TFunction, withDevice = true): ColumnsType<TicketRow> {
  return [
    {
      title: t('ticket.title'),
      dataIndex: 'title',
      key: 'title',
      sorter: true,
      render: (v: string, r) => (
        <Link to={`/manage/issue/detail/${r.id}`} data-testid="ticket-link">
          {v}
        </Link>
      ),
    },
    { title: t('ticket.state'), dataIndex: 'state', key: 'state', render: (v: string) => <StateTag state={v} /> },
    { title: t('ticket.category'), dataIndex: 'category', key: 'category', sorter: true, render: (v: number) => <CategoryLabel category={v} /> },
    { title: t('ticket.priority'), dataIndex: 'priority', key: 'priority', sorter: true, render: (v: number) => <PriorityTag priority={v} /> },
    { title: t('ticket.occurredAt'), dataIndex: 'occurredAt', key: 'occurredAt', sorter: true, render: (v: number) => formatTime(v) },
    ...(withDevice
      ? [
          {
            title: t('ticket.device'),
            dataIndex: 'deviceSn',
            key: 'deviceSn',
            render: (v: string, r: TicketRow) =>
              v ? (
                <span translate="no">
                  {v}
                  {r.deviceName && <Typography.Text type="secondary">{` · ${r.deviceName}`}</Typography.Text>}
                </span>
              ) : (
                '-'
              ),
          },
          { title: t('ticket.site'), dataIndex: 'siteName', key: 'siteName', render: (v: string) => v || '-' },
          { title: t('ticket.customer'), dataIndex: 'customerName', key: 'customerName' },
        ]
      : [{ title: t('ticket.softwareVersion'), dataIndex: 'softwareVersion', key: 'softwareVersion', render: (v: string) => v || '-' }]),
    { title: t('ticket.comments'), dataIndex: 'comments', key: 'comments' },
    { title: t('ticket.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', sorter: true, render: (v: number) => formatTime(v) },
  ];
}
