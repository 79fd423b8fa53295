/**
 * issue/detail/:id — one ticket (docs/tickets.md): its fields and description, the process
 * (comments and every change) as a timeline, a comment box, and the actions its state and the
 * caller's keys allow: Edit, Pending, Close and Reopen (with a required comment), Share.
 */
import { DEVICE_READ_KEYS } from '../../access';
import { lazy, Suspense, useState } from 'react';
import { Button, Card, Descriptions, Form, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { NotFoundResult, PageHeader } from '../../components/PageHeader';
import { useCan } from '../../components/access';
import RichTextEditor from '../../components/richtext/RichTextEditor';
import RichTextView from '../../components/richtext/RichTextView';
import { useActions } from '../../hooks/useActions';
import { closeTicket, commentTicket, getTicket, pendingTicket, reopenTicket, ticketKeys } from '../../services/ticket';
import { formatTime } from '../../utils/time';
import CommentModal from './components/CommentModal';
import { CategoryLabel, PriorityTag, StateTag } from './components/labels';
import Timeline from './components/Timeline';
import { registerTexts } from '../../locales/domains';
import { ticketTexts } from '../../locales/domains/ticket';

registerTexts(ticketTexts);

const TicketDrawer = lazy(() => import('./TicketDrawer'));
const ShareModal = lazy(() => import('./components/ShareModal'));

export default function TicketDetail() {
  const { t } = useTranslation();
  const can = useCan();
  const { run } = useActions();
  const id = Number(useParams().id);
  const q = useQuery({ queryKey: ticketKeys.detail(id), queryFn: () => getTicket(id), enabled: id > 0 });
  const [modal, setModal] = useState<'close' | 'reopen' | 'share' | 'edit' | null>(null);
  const [form] = Form.useForm<{ comment: string }>();
  const [busy, setBusy] = useState(false);
  const x = q.data;
  if (q.isError || !(id > 0)) return <NotFoundResult />;

  const invalidate = [ticketKeys.details, ticketKeys.list];
  const comment = async ({ comment: c }: { comment: string }) => {
    setBusy(true);
    try {
      if (await run(() => commentTicket(id, c), { invalidate })) form.resetFields();
    } finally {
      setBusy(false);
    }
  };
  const edit = can('auth_issue_edit');
  const state = x?.state;
  return (
    <div data-testid="ticket-detail">
      <PageHeader
        back="/manage/issue/list"
        title={x ? x.title : t('ticket.detail')}
        sub={x && <StateTag state={x.state} />}
        extra={
          x && (
            <Space wrap>
              {edit && state !== 'closed' && (
                <Button onClick={() => setModal('edit')} data-testid="ticket-edit">
                  {t('com_edit')}
                </Button>
              )}
              {edit && (state === 'open' || state === 'reopen') && (
                <Button onClick={() => void run(() => pendingTicket(id), { invalidate })} data-testid="ticket-pending">
                  {t('ticket.action.pending')}
                </Button>
              )}
              {edit && state !== 'closed' && (
                <Button type="primary" onClick={() => setModal('close')} data-testid="ticket-close">
                  {t('ticket.action.close')}
                </Button>
              )}
              {edit && state === 'closed' && (
                <Button type="primary" onClick={() => setModal('reopen')} data-testid="ticket-reopen">
                  {t('ticket.action.reopen')}
                </Button>
              )}
              {can('auth_issue_share') && (
                <Button onClick={() => setModal('share')} data-testid="ticket-share">
                  {t('ticket.share')}
                </Button>
              )}
            </Space>
          )
        }
      />
      <Card loading={q.isPending} style={{ marginBottom: 16 }}>
        {x && (
          <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }} data-testid="ticket-fields">
            <Descriptions.Item label={t('ticket.category')}>
              <CategoryLabel category={x.category} />
            </Descriptions.Item>
            <Descriptions.Item label={t('ticket.priority')}>
              <PriorityTag priority={x.priority} />
            </Descriptions.Item>
            <Descriptions.Item label={t('ticket.occurredAt')}>{formatTime(x.occurredAt)}</Descriptions.Item>
            <Descriptions.Item label={t('ticket.device')}>
              {x.deviceId ? (
                can(DEVICE_READ_KEYS) ? (
                  <Link to={`/manage/device/detail/${x.deviceId}`} translate="no">
                    {x.deviceSn}
                  </Link>
                ) : (
                  <span translate="no">{x.deviceSn}</span>
                )
              ) : (
                '-'
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('ticket.softwareVersion')}>{x.softwareVersion || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('ticket.site')}>{x.siteName || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('ticket.customer')}>{x.customerName}</Descriptions.Item>
            <Descriptions.Item label={t('ticket.creator')}>{x.creatorName || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('com_create_time')}>{formatTime(x.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('ticket.updatedAt')}>{formatTime(x.updatedAt)}</Descriptions.Item>
            <Descriptions.Item label={t('ticket.closedAt')}>{x.closedAt ? formatTime(x.closedAt) : '-'}</Descriptions.Item>
            <Descriptions.Item label={t('ticket.description')} span="filled">
              {x.description ? <RichTextView html={x.description} testId="ticket-description-view" /> : '-'}
            </Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      <Card title={t('ticket.process')} style={{ marginBottom: 16 }}>
        {x && <Timeline entries={x.entries ?? []} />}
        <Form form={form} layout="vertical" onFinish={comment} data-testid="ticket-comment-form">
          <Form.Item name="comment" label={t('ticket.addComment')} rules={[{ required: true, whitespace: true, message: t('ticket.commentRequired') }]}>
            <RichTextEditor images placeholder={t('ticket.commentPlaceholder')} testId="ticket-comment" minHeight={120} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="ticket-comment-submit">
            {t('ticket.addComment')}
          </Button>
        </Form>
      </Card>
      <CommentModal
        open={modal === 'close'}
        title={t('ticket.action.close')}
        onClose={() => setModal(null)}
        onSubmit={(c) => run(() => closeTicket(id, c), { invalidate })}
        testId="ticket-close-modal"
      />
      <CommentModal
        open={modal === 'reopen'}
        title={t('ticket.action.reopen')}
        onClose={() => setModal(null)}
        onSubmit={(c) => run(() => reopenTicket(id, c), { invalidate })}
        testId="ticket-reopen-modal"
      />
      <Suspense fallback={null}>
        {modal === 'share' && <ShareModal ticketId={id} open onClose={() => setModal(null)} />}
        {modal === 'edit' && x && <TicketDrawer open ticket={x} onClose={() => setModal(null)} />}
      </Suspense>
    </div>
  );
}
