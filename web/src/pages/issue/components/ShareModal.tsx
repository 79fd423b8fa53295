/**
 * Anonymous shares of a ticket (docs/tickets.md, "Anonymous share"): validity 1, 7 or 30 days,
 * permanent or custom days; the link is shown once with a copy button; the list of shares with
 * their expiry and a revoke action.
 */
import { useState } from 'react';
import { Alert, Button, InputNumber, Modal, Popconfirm, Radio, Space, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useActions } from '../../../hooks/useActions';
import { addShare, listShares, revokeShare, SHARE_DAYS, ticketKeys, type MadeShare, type TicketShare } from '../../../services/ticket';
import { formatTime } from '../../../utils/time';
import { registerTexts } from '../../../locales/domains';
import { ticketTexts } from '../../../locales/domains/ticket';
import QueryTable from '../../../components/QueryTable';

registerTexts(ticketTexts);

export default function ShareModal({ ticketId, open, onClose }: { ticketId: number; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { run } = useActions();
  const [choice, setChoice] = useState<number | 'custom'>(7);
  const [custom, setCustom] = useState<number | null>(3);
  const [made, setMade] = useState<MadeShare>();
  const q = useQuery({ queryKey: ticketKeys.shares(ticketId), queryFn: () => listShares(ticketId), enabled: open });
  const make = () => {
    const days = choice === 'custom' ? (custom ?? 0) : choice;
    void run(
      async () => {
        setMade(await addShare(ticketId, { days }));
      },
      { invalidate: [ticketKeys.allShares, ticketKeys.details], success: false },
    );
  };
  const status = (s: TicketShare) =>
    s.revoked ? <Tag>{t('ticket.share.revoked')}</Tag> : s.expired ? <Tag>{t('ticket.share.expired')}</Tag> : <Tag color="green">{t('ticket.share.live')}</Tag>;
  return (
    <Modal open={open} title={t('ticket.share')} onCancel={onClose} footer={null} width={720} destroyOnHidden>
      <Space direction="vertical" style={{ width: '100%' }} data-testid="ticket-share-modal">
        <Space wrap>
          <span>{t('ticket.share.validity')}</span>
          <Radio.Group value={choice} onChange={(e) => setChoice(e.target.value as number | 'custom')}>
            {SHARE_DAYS.map((d) => (
              <Radio.Button key={d} value={d}>
                {d === 0 ? t('ticket.share.permanent') : t('ticket.share.days', { count: d })}
              </Radio.Button>
            ))}
            <Radio.Button value="custom">{t('ticket.share.custom')}</Radio.Button>
          </Radio.Group>
          {choice === 'custom' && <InputNumber min={1} max={3650} value={custom} onChange={setCustom} addonAfter={t('com_days')} style={{ width: 140 }} />}
          <Button type="primary" onClick={make} data-testid="ticket-share-make">
            {t('ticket.share.make')}
          </Button>
        </Space>
        {made && (
          <Alert
            type="success"
            showIcon
            message={t('ticket.share.made')}
            description={
              <Space direction="vertical" style={{ width: '100%' }}>
                <Typography.Paragraph copyable={{ text: made.url }} style={{ marginBottom: 0 }} data-testid="ticket-share-url">
                  {made.url}
                </Typography.Paragraph>
                <Typography.Text type="secondary">{made.expiresAt ? t('ticket.share.until', { time: formatTime(made.expiresAt) }) : t('ticket.share.permanent')}</Typography.Text>
              </Space>
            }
          />
        )}
        <QueryTable<TicketShare> query={q}
          size="small"
          rowKey="id"
          dataSource={q.data ?? []}
          pagination={false}
          data-testid="ticket-share-list"
          columns={[
            { title: t('ticket.share.createdAt'), dataIndex: 'createdAt', render: (v: number) => formatTime(v) },
            { title: t('ticket.creator'), dataIndex: 'creatorName' },
            { title: t('ticket.share.expiresAt'), dataIndex: 'expiresAt', render: (v: number) => (v ? formatTime(v) : t('ticket.share.permanent')) },
            { title: t('ticket.state'), key: 'status', render: (_: unknown, s) => status(s) },
            {
              title: t('com_actions'),
              key: 'actions',
              render: (_: unknown, s) =>
                !s.revoked && (
                  <Popconfirm title={t('ticket.share.revokeConfirm')} onConfirm={() => run(() => revokeShare(s.id), { invalidate: [ticketKeys.allShares, ticketKeys.details] })}>
                    <a data-testid="ticket-share-revoke">{t('ticket.share.revoke')}</a>
                  </Popconfirm>
                ),
            },
          ]}
        />
      </Space>
    </Modal>
  );
}
