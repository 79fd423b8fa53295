/**
 * A device's Issues tab (docs/tickets.md, "Created from"): the device's tickets (all states)
 * and "New ticket" pre-filled with the device, its site, customer and software version.
 */
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import ListPage, { AddButton } from '../../components/ListPage';
import { useCan } from '../../components/access';
import { useListState } from '../../hooks/useListState';
import { listTickets, ticketKeys, type TicketRow } from '../../services/ticket';
import { ticketColumns } from './components/columns';
import type { TicketDevice } from './TicketDrawer';
import { registerTexts } from '../../locales/domains';
import { ticketTexts } from '../../locales/domains/ticket';

registerTexts(ticketTexts);

const TicketDrawer = lazy(() => import('./TicketDrawer'));
const SPEC = {} as const;

export default function DeviceIssues({ device }: { device: TicketDevice }) {
  const { t } = useTranslation();
  const can = useCan();
  const list = useListState(SPEC, '', true);
  const [adding, setAdding] = useState(false);
  return (
    <>
      <ListPage<TicketRow>
        list={list}
        queryKey={ticketKeys.ofDevice(device.id)}
        fetcher={(q) => listTickets({ ...q, tab: 'all', deviceId: device.id } as never)}
        columns={ticketColumns(t, false)}
        testId="device-tickets"
        toolbar={can('auth_issue_add') && <AddButton label={t('ticket.add')} onClick={() => setAdding(true)} testId="device-ticket-add" />}
      />
      {adding && (
        <Suspense fallback={null}>
          <TicketDrawer open onClose={() => setAdding(false)} device={device} />
        </Suspense>
      )}
    </>
  );
}
