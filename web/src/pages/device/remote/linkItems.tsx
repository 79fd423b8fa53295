/** The rows of the remote link panel: the state, then the link's own (kind, account, who, when, validity, countdown, end). */
import { Space, Spin, Tag, Typography, type DescriptionsProps } from 'antd';
import type { TFunction } from 'i18next';
import type { LinkView } from '../../../services/remote';
import { formatTime } from '../../../utils/time';
import { formatRemaining, type LinkState } from './linkState';

const STATE_COLORS: Record<LinkState, string> = { none: 'default', opening: 'processing', open: 'success', closed: 'default' };

export function linkItems(t: TFunction, state: LinkState, link: LinkView | null, left: number, waiting: boolean): DescriptionsProps['items'] {
  const items: DescriptionsProps['items'] = [
    {
      key: 'state',
      label: t('rlink.state'),
      children: (
        <Space>
          <Tag color={STATE_COLORS[state]} data-testid="link-state">
            {t(`rlink.state.${state}`)}
          </Tag>
          {waiting && (
            <Typography.Text type="secondary">
              <Spin size="small" /> {t('rlink.waiting')}
            </Typography.Text>
          )}
        </Space>
      ),
    },
  ];
  if (!link) return items;
  const minutes = link.minutes || Math.round((link.expiresAt - link.openedAt) / 60_000);
  items.push(
    { key: 'kind', label: t('rlink.kind'), children: <span data-testid="link-kind-value">{t(`rlink.kind.${link.kind}`)}</span> },
    { key: 'account', label: t('rlink.account'), children: link.account || '-' },
    { key: 'by', label: t('rlink.openedBy'), children: link.openedByName || '-' },
    { key: 'at', label: t('rlink.openedAt'), children: formatTime(link.openedAt) },
    { key: 'validity', label: t('rlink.validity'), children: minutes > 0 ? t('rlink.validityValue', { minutes, until: formatTime(link.expiresAt) }) : '-' },
  );
  if (state === 'open')
    items.push({
      key: 'left',
      label: t('rlink.remaining'),
      children: (
        <Typography.Text strong data-testid="link-remaining">
          {formatRemaining(left)}
        </Typography.Text>
      ),
    });
  if (state === 'closed')
    items.push({
      key: 'closed',
      label: t('rlink.closedAt'),
      children: (
        <span data-testid="link-closed">
          {formatTime(link.closedAt)}
          {link.closeReason ? ` · ${t(`rlink.reason.${link.closeReason}`, { defaultValue: link.closeReason })}` : ''}
        </span>
      ),
    });
  if (link.node) items.push({ key: 'node', label: t('rlink.node'), children: link.node });
  return items;
}
