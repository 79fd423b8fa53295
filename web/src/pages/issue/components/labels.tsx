/** Tags of a ticket's category, priority and state (docs/tickets.md). */
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { PRIORITY_COLORS, STATE_COLORS } from '../../../services/ticket';
import { registerTexts } from '../../../locales/domains';
import { ticketTexts } from '../../../locales/domains/ticket';

registerTexts(ticketTexts);

export function StateTag({ state }: { state: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLORS[state]} data-testid="ticket-state" data-value={state}>
      {t(`ticket.state.${state}`)}
    </Tag>
  );
}

export function PriorityTag({ priority }: { priority: number }) {
  const { t } = useTranslation();
  return <Tag color={PRIORITY_COLORS[priority]}>{t(`ticket.priority.${priority}`)}</Tag>;
}

export function CategoryLabel({ category }: { category: number }) {
  const { t } = useTranslation();
  return <>{t(`ticket.category.${category}`)}</>;
}
