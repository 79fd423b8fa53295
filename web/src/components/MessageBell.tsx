/**
 * The header's bell: the live unread message count (hooks/useUnread.ts); a click opens the
 * notification centre. While the console is open, a rising count shows one notification for
 * 5 s (docs/messages.md#the-notification-centre-as-a-triage-list-issue-30) per burst of rises (NoticeGate), naming the newest unread message's charger,
 * site and alarm (noticeText), at the bottom right so it never covers the header. Rendered only for holders of the list's keys.
 */
import { useEffect } from 'react';
import { App, Button, theme, Tooltip } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useUnread, unreadFeed } from '../hooks/useUnread';
import { queryClient } from '../services/queryClient';
import { listMessages, messageKeys } from '../services/message';
import { NOTICE_SECONDS, NoticeGate, noticeText } from '../utils/message';
import { eventName, levelCode } from '../utils/eventNames';

export const MESSAGE_LIST_PATH = '/manage/message/list';
const NOTICE_KEY = 'message-new';
/** One per tab: a burst of rises is one notice however often the bell re-renders. */
const noticeGate = new NoticeGate();

/** The count as a small bubble on the bell (antd's Badge would add 4 KB to every first load). */
function CountBubble({ count }: { count: number }) {
  const { token } = theme.useToken();
  if (count <= 0) return null;
  return (
    <span
      data-testid="message-bell-count"
      style={{
        position: 'absolute',
        top: 0,
        insetInlineEnd: 0,
        transform: 'translate(40%, -30%)',
        minWidth: 16,
        height: 16,
        padding: '0 4px',
        borderRadius: 8,
        background: token.colorError,
        color: token.colorTextLightSolid,
        fontSize: 10,
        lineHeight: '16px',
        textAlign: 'center',
        boxShadow: `0 0 0 1px ${token.colorBgContainer}`,
        pointerEvents: 'none',
      }}
    >
      {count > 99 ? '99+' : count}
    </span>
  );
}

export default function MessageBell() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { notification } = App.useApp();
  const { count, streamUp } = useUnread();

  useEffect(() => {
    const name = (code: string, stored: string) => eventName(code, stored, t, (k) => i18n.exists(k), i18n.language);
    return unreadFeed.onRise((n, before) => {
      void queryClient.invalidateQueries({ queryKey: messageKeys.list });
      if (!noticeGate.pass(Date.now())) return; // one notice per burst
      const show = (description: string) =>
        notification.info({
          key: NOTICE_KEY,
          message: t('message.notice.title'),
          description: <span data-testid="message-notice">{description}</span>,
          duration: NOTICE_SECONDS,
          placement: 'bottomRight',
          onClick: () => {
            notification.destroy(NOTICE_KEY);
            void navigate(MESSAGE_LIST_PATH);
          },
        });
      // name what happened: the newest unread row (its charger, site and alarm)
      listMessages({ page: 1, pageSize: 10, read: 0, sort: 'lastAt', order: 'desc' })
        .then((page) => {
          const m = page.list[0];
          show(m ? noticeText(m, n - before - 1, t, name, levelCode) : t('message.notice.body', { count: n - before, unread: n }));
        })
        .catch(() => show(t('message.notice.body', { count: n - before, unread: n })));
    });
  }, [notification, navigate, t, i18n]);

  const label = t('message.unread', { count: count ?? 0 });
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        aria-label={label}
        data-testid="message-bell"
        data-count={count ?? ''}
        data-live={streamUp ? '1' : '0'}
        onClick={() => void navigate(MESSAGE_LIST_PATH)}
        icon={
          <span style={{ position: 'relative', display: 'inline-flex' }}>
            <BellOutlined style={{ fontSize: 18 }} />
            <CountBubble count={count ?? 0} />
          </span>
        }
      />
    </Tooltip>
  );
}
