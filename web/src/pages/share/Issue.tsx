/**
 * /share/issue?token=… — a ticket shared anonymously, signed out (docs/tickets.md, "Anonymous
 * share"): title, category, priority, state, device SN, times, description and the process
 * with comments; the visitor comments under a name they type. An unknown, revoked or expired
 * link says so (the server answers all three alike). Loads the rich-text editor lazily.
 */
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, Result, Spin, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import RichTextView from '../../components/richtext/RichTextView';
import LanguageSwitch from '../../components/LanguageSwitch';
import { RequestError } from '../../services/request';
import { commentShared, MAX_VISITOR_NAME, SHARE_GONE_CODE, sharedTicket, type SharedTicket } from '../../services/ticket';
import { formatTime } from '../../utils/time';
import { CategoryLabel, PriorityTag, StateTag } from '../issue/components/labels';
import Timeline from '../issue/components/Timeline';
import { registerTexts } from '../../locales/domains';
import { ticketTexts } from '../../locales/domains/ticket';

registerTexts(ticketTexts);

const RichTextEditor = lazy(() => import('../../components/richtext/RichTextEditor'));

/** The editor as a form control (Form.Item hands value and onChange to its direct child). */
function LazyEditor(p: { value?: string; onChange?: (html: string) => void }) {
  return (
    <Suspense fallback={<Spin />}>
      <RichTextEditor {...p} testId="share-issue-comment" minHeight={120} />
    </Suspense>
  );
}

type State = { kind: 'loading' } | { kind: 'gone'; message?: string } | { kind: 'error'; message: string } | { kind: 'ready'; ticket: SharedTicket };

const messageOf = (e: unknown) => (e instanceof Error && e.message ? e.message : String(e));

export default function ShareIssue() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ name: string; comment: string }>();

  const load = useCallback(async () => {
    if (!token) return setState({ kind: 'gone' });
    try {
      setState({ kind: 'ready', ticket: await sharedTicket(token) });
    } catch (e) {
      setState(e instanceof RequestError && e.code === SHARE_GONE_CODE ? { kind: 'gone', message: e.message } : { kind: 'error', message: messageOf(e) });
    }
  }, [token]);
  useEffect(() => {
    void load();
  }, [load]);

  const submit = async (v: { name: string; comment: string }) => {
    setBusy(true);
    setError(null);
    try {
      await commentShared(token, v.name.trim(), v.comment);
      form.setFieldValue('comment', '');
      await load();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (state.kind === 'loading') body = <Spin style={{ display: 'block', margin: '32px auto' }} />;
  else if (state.kind === 'gone')
    body = (
      <div data-testid="share-issue-gone">
        <Result status="warning" title={state.message || t('ticket.shareGone')} />
      </div>
    );
  else if (state.kind === 'error') body = <Alert type="error" showIcon message={state.message} data-testid="share-issue-error" />;
  else {
    const x = state.ticket;
    body = (
      <>
        <Card style={{ marginBottom: 16 }}>
          <Typography.Title level={4} style={{ marginTop: 0 }} data-testid="share-issue-title">
            {x.title} <StateTag state={x.state} />
          </Typography.Title>
          <Descriptions bordered size="small" column={{ xs: 1, md: 2 }}>
            <Descriptions.Item label={t('ticket.category')}>
              <CategoryLabel category={x.category} />
            </Descriptions.Item>
            <Descriptions.Item label={t('ticket.priority')}>
              <PriorityTag priority={x.priority} />
            </Descriptions.Item>
            <Descriptions.Item label={t('ticket.deviceSn')}>
              <span translate="no">{x.deviceSn || '-'}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('ticket.softwareVersion')}>{x.softwareVersion || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('ticket.occurredAt')}>{formatTime(x.occurredAt)}</Descriptions.Item>
            <Descriptions.Item label={t('com_create_time')}>{formatTime(x.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('ticket.updatedAt')}>{formatTime(x.updatedAt)}</Descriptions.Item>
            <Descriptions.Item label={t('ticket.closedAt')}>{x.closedAt ? formatTime(x.closedAt) : '-'}</Descriptions.Item>
            <Descriptions.Item label={t('ticket.description')} span="filled">
              {x.description ? <RichTextView html={x.description} /> : '-'}
            </Descriptions.Item>
          </Descriptions>
          <Typography.Text type="secondary">{x.expiresAt ? t('ticket.share.until', { time: formatTime(x.expiresAt) }) : t('ticket.share.permanent')}</Typography.Text>
        </Card>
        <Card title={t('ticket.process')}>
          <Timeline entries={x.entries ?? []} unnamed={t('ticket.staff')} />
          <Form form={form} layout="vertical" onFinish={submit} data-testid="share-issue-comment-form">
            <Form.Item name="name" label={t('ticket.visitorName')} rules={[{ required: true, whitespace: true, message: t('ticket.visitorNameRequired') }, { max: MAX_VISITOR_NAME }]}>
              <Input maxLength={MAX_VISITOR_NAME} style={{ maxWidth: 320 }} data-testid="share-issue-name" />
            </Form.Item>
            <Form.Item name="comment" label={t('ticket.comment')} rules={[{ required: true, whitespace: true, message: t('ticket.commentRequired') }]}>
              <LazyEditor />
            </Form.Item>
            {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="share-issue-comment-error" />}
            <Button type="primary" htmlType="submit" loading={busy} data-testid="share-issue-submit">
              {t('ticket.addComment')}
            </Button>
          </Form>
        </Card>
      </>
    );
  }
  return (
    <div style={{ maxWidth: 960, margin: '0 auto', padding: 24 }} data-testid="share-issue">
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 16 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('ticket.shareTitle')}
        </Typography.Title>
        <LanguageSwitch />
      </div>
      {body}
    </div>
  );
}
