/**
 * issue/list — tickets (spec "issues"; docs/tickets.md): tabs Open (open, pending, reopen),
 * Closed and All, filters (category, priority, device SN, site, customer, text) in the URL,
 * "New ticket" in a drawer.
 */
import { lazy, Suspense, useState } from 'react';
import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage, { AddButton, type FilterField } from '../../components/ListPage';
import { useCan } from '../../components/access';
import { useListState } from '../../hooks/useListState';
import { useCustomerOptions, useSiteOptions } from '../../hooks/useOptions';
import { CATEGORIES, listTickets, PRIORITIES, TABS, ticketKeys, type TicketRow, type TicketTab } from '../../services/ticket';
import { ticketColumns } from './components/columns';
import { registerTexts } from '../../locales/domains';
import { ticketTexts } from '../../locales/domains/ticket';

registerTexts(ticketTexts);

const TicketDrawer = lazy(() => import('./TicketDrawer'));

const SPEC = { category: 'number', priority: 'number', sn: 'string', siteId: 'number', customerId: 'number', text: 'string' } as const;

export default function TicketList() {
  const { t } = useTranslation();
  const can = useCan();
  const list = useListState(SPEC);
  const [params, setParams] = useSearchParams();
  const [adding, setAdding] = useState(false);
  const customers = useCustomerOptions();
  const sites = useSiteOptions(typeof list.filters.customerId === 'number' ? list.filters.customerId : undefined);
  // The tab is the page's own parameter (the list's filters and reset leave it).
  const tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as TicketTab) : 'open';
  const setTab = (k: string) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      next.set('tab', k);
      next.delete('page');
      return next;
    });

  const filters: FilterField[] = [
    { name: 'text', label: t('ticket.search'), width: 200 },
    { name: 'category', label: t('ticket.category'), width: 190, options: CATEGORIES.map((c) => ({ value: c, label: t(`ticket.category.${c}`) })) },
    { name: 'priority', label: t('ticket.priority'), width: 110, options: PRIORITIES.map((p) => ({ value: p, label: t(`ticket.priority.${p}`) })) },
    { name: 'sn', label: t('ticket.deviceSn'), width: 160 },
    { name: 'customerId', label: t('ticket.customer'), width: 180, options: customers },
    { name: 'siteId', label: t('ticket.site'), width: 180, options: sites },
  ];
  return (
    <>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={TABS.map((k) => ({ key: k, label: <span data-testid={`ticket-tab-${k}`}>{t(`ticket.tab.${k}`)}</span> }))}
      />
      <ListPage<TicketRow>
        list={list}
        queryKey={ticketKeys.ofTab(tab)}
        fetcher={(q) => listTickets({ ...q, tab } as never)}
        columns={ticketColumns(t)}
        filters={filters}
        testId="ticket-list"
        toolbar={can('auth_issue_add') && <AddButton label={t('ticket.add')} onClick={() => setAdding(true)} testId="ticket-add" />}
      />
      {adding && (
        <Suspense fallback={null}>
          <TicketDrawer open={adding} onClose={() => setAdding(false)} />
        </Suspense>
      )}
    </>
  );
}
