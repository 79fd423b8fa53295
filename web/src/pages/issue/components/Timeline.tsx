/**
 * A ticket's process, oldest first: who did what and when — created, a field from -> to, a
 * state from -> to (with its comment), comments (rich text the server sanitised and signed),
 * shares made and revoked; a share's visitor shows as "anonymous: name". On the anonymous share
 * page staff come by display name or not named (unnamed: "Staff"), never by login name.
 */
import { Card, Empty, Space, Tag, Timeline as AntTimeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import RichTextView from '../../../components/richtext/RichTextView';
import type { TicketEntry } from '../../../services/ticket';
import { formatTime } from '../../../utils/time';
import { registerTexts } from '../../../locales/domains';
import { ticketTexts } from '../../../locales/domains/ticket';

registerTexts(ticketTexts);

const COLORS: Record<string, string> = { create: 'green', state: 'blue', comment: 'gray', field: 'gray', share: 'purple', unshare: 'purple' };

function Who({ e, unnamed }: { e: TicketEntry; unnamed: string }) {
  const { t } = useTranslation();
  return e.anonymous ? (
    <Tag color="orange" data-testid="ticket-entry-anonymous">
      {t('ticket.anonymous', { name: e.anonymous })}
    </Tag>
  ) : (
    <Typography.Text strong data-testid="ticket-entry-who">
      {e.userName || unnamed}
    </Typography.Text>
  );
}

/** A field's value as the console shows it. */
function useValue() {
  const { t } = useTranslation();
  return (field: string, v: string) => {
    if (v === '' || (field === 'alarm' && v === '0')) return '-';
    if (field === 'category') return t(`ticket.category.${v}`);
    if (field === 'priority') return t(`ticket.priority.${v}`);
    if (field === 'occurredAt') return formatTime(Number(v));
    return v;
  };
}

/** unnamed is what an entry without a user name shows ('-' in the console). */
export default function Timeline({ entries, unnamed = '-' }: { entries: TicketEntry[]; unnamed?: string }) {
  const { t } = useTranslation();
  const value = useValue();
  if (!entries.length) return <Empty />;
  const what = (e: TicketEntry) => {
    switch (e.kind) {
      case 'create':
        return t('ticket.entry.create');
      case 'state':
        return t('ticket.entry.state', { from: t(`ticket.state.${e.from}`), to: t(`ticket.state.${e.to}`) });
      case 'field':
        return e.field === 'description'
          ? t('ticket.entry.description')
          : t('ticket.entry.field', { field: t(`ticket.field.${e.field}`), from: value(e.field, e.from), to: value(e.field, e.to) });
      case 'comment':
        return t('ticket.entry.comment');
      case 'share':
        // '0' is permanent; no value (an answer that hides it) says neither, never "permanent"
        if (e.to === '0') return t('ticket.entry.share');
        return e.to ? t('ticket.entry.shareUntil', { time: formatTime(Number(e.to)) }) : t('ticket.entry.shareMade');
      case 'unshare':
        return t('ticket.entry.unshare');
      default:
        return e.kind;
    }
  };
  return (
    <AntTimeline
      data-testid="ticket-timeline"
      items={entries.map((e) => ({
        key: e.id,
        color: COLORS[e.kind] ?? 'gray',
        children: (
          <div data-testid={`ticket-entry-${e.kind}`}>
            <Space wrap size={6}>
              <Who e={e} unnamed={unnamed} />
              <span>{what(e)}</span>
              <Typography.Text type="secondary">{formatTime(e.createdAt)}</Typography.Text>
            </Space>
            {e.body && (
              <Card size="small" style={{ marginTop: 6 }}>
                <RichTextView html={e.body} testId="ticket-entry-body" />
              </Card>
            )}
          </div>
        ),
      }))}
    />
  );
}
