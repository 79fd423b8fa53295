/** The event list behind a home figure: a drawer with EventTable filtered as the figure counts. */
import { Drawer } from 'antd';
import { EventTable } from '../../components/fleet';
import type { EventFilter } from './figures';

export interface EventsView {
  title: string;
  filter: EventFilter;
}

export default function EventsDrawer({ view, onClose }: { view: EventsView | null; onClose(): void }) {
  const f = view?.filter;
  return (
    <Drawer
      open={!!view}
      onClose={onClose}
      title={view?.title}
      width="min(1100px, 100vw)"
      destroyOnHidden
      data-testid="home-events-drawer"
    >
      {f && (
        <EventTable
          key={JSON.stringify(f)}
          kinds={f.kinds}
          status={f.status}
          level={f.level}
          start={f.start}
          end={f.end}
          testId="home-events-list"
        />
      )}
    </Drawer>
  );
}
