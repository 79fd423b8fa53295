/**
 * manage/home — the home dashboard (docs/dashboards.md): devices by status and health, by
 * model, open alarms by level, open faults by type (pies); faults started in a period (stacked
 * bars, totals, top sites and devices); the newest events. Every figure opens the list behind
 * it, filtered. Live: a pushed status change refetches the figures (at most once a second);
 * while the stream is down they are polled every 30 s. Three calls draw the page (overview,
 * faults, events) besides the status stream.
 *
 * First load (issue 8, scripts/budget.mjs): the route's chunks carry the figures (pie legends
 * and counts). The parts with heavy code, ECharts (components/charts), antd's Table and date
 * pickers (fault statistics, recent events, the event drawer and the live badge, which share the
 * fleet module), are fetched when the page first renders, alongside its three calls, with
 * placeholders of their size meanwhile.
 */
import { DEVICE_READ_KEYS, type PermissionKey } from '../../access';
import { useCallback, useState } from 'react';
import { Alert, Card, Col, Row, Space, Typography } from 'antd';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../components/access';
import { deferred } from '../../components/deferred';
import { useLiveRefresh } from '../../hooks/useLiveRefresh';
import { homeEvents, homeFaults, homeOverview, statsKeys } from '../../services/stats';
import { currentPeriod, type PeriodValue } from '../../utils/period';
import { getTimeZone } from '../../utils/time';
import Figures from './Figures';
import DeviceCategories from '../../components/DeviceCategories';
import { deviceListOfCategory } from '../../utils/categories';
import type { FaultStatsProps } from './FaultStats';
import type { RecentEventsProps } from './RecentEvents';
import type { EventsView } from './EventsDrawer';
import type { EventFilter } from './figures';

function SectionLoading({ title, height }: { title: string; height: number }) {
  const { t } = useTranslation();
  return (
    <Card title={t(title)} loading styles={{ body: { minHeight: height } }}>
      {null}
    </Card>
  );
}
const FaultStats = deferred<FaultStatsProps>(
  () => import('./FaultStats'),
  () => <SectionLoading title="home.faultStats" height={640} />,
);
const RecentEvents = deferred<RecentEventsProps>(
  () => import('./RecentEvents'),
  () => <SectionLoading title="home.recentEvents" height={420} />,
);
const EventsDrawer = deferred<{ view: EventsView | null; onClose(): void }>(
  () => import('./EventsDrawer'),
  () => null,
);
const LiveBadge = deferred<{ up: boolean }>(
  () => import('../../components/fleet').then((m) => ({ default: m.LiveBadge })),
  () => <span style={{ display: 'inline-block', height: 22 }} />,
);

/** Query-key root of every home query (invalidated on pushed changes). */
const RECENT_LIMIT = 10;
/** The event list's permission keys (dev/alarm/list). */
const EVENT_LIST_KEYS: PermissionKey[] = ['auth_device_detail', 'auth_device_info', 'auth_device_edit', 'auth_site_detail'];

export default function HomeDashboard() {
  const { t } = useTranslation();
  const can = useCan();
  const qc = useQueryClient();
  const tz = getTimeZone();
  const [period, setPeriod] = useState<PeriodValue>(() => currentPeriod('month', Date.now(), tz));
  const [drawer, setDrawer] = useState<EventsView | null>(null);
  const refresh = useCallback(() => qc.invalidateQueries({ queryKey: statsKeys.home }), [qc]);
  const { streamUp, pollMs } = useLiveRefresh(refresh);

  const overview = useQuery({ queryKey: statsKeys.homeOverview, queryFn: homeOverview, refetchInterval: pollMs });
  const faults = useQuery({
    queryKey: statsKeys.homeFaults(period.start, period.end),
    queryFn: () => homeFaults({ start: period.start, end: period.end }),
    placeholderData: keepPreviousData,
    refetchInterval: pollMs,
  });
  const events = useQuery({ queryKey: statsKeys.homeEvents(RECENT_LIMIT), queryFn: () => homeEvents({ limit: RECENT_LIMIT }), refetchInterval: pollMs });

  const canEvents = can(EVENT_LIST_KEYS);
  const canDevices = can('auth_device_list');
  const canDevice = can(DEVICE_READ_KEYS);
  const canSite = can('auth_site_detail');
  const openEvents = (title: string, filter: EventFilter) => setDrawer({ title, filter });
  const failed = overview.isError && faults.isError && events.isError;

  return (
    <div data-testid="home-dashboard" data-ready={overview.data && faults.data && events.data ? '1' : '0'}>
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <Typography.Text type="secondary">{t('home.clickHint')}</Typography.Text>
          <LiveBadge up={streamUp} />
        </Space>
        {failed && <Alert type="error" showIcon message={t('home.error')} data-testid="home-error" />}
        <Figures data={overview.data} loading={overview.isPending} canDevices={canDevices} canEvents={canEvents} openEvents={openEvents} />
        <DeviceCategories
          counts={overview.data?.categories}
          loading={overview.isPending}
          testId="home-categories"
          linkOf={canDevices ? (code) => deviceListOfCategory(code) : undefined}
        />
        <Row gutter={[16, 16]}>
          <Col xs={24}>
            <FaultStats
              period={period}
              onPeriod={setPeriod}
              data={faults.data}
              loading={faults.isFetching && !faults.data}
              tz={tz}
              canEvents={canEvents}
              canSite={canSite}
              canDevice={canDevice}
              openEvents={openEvents}
            />
          </Col>
          <Col xs={24}>
            <RecentEvents
              list={events.data?.list}
              loading={events.isPending}
              canDevice={canDevice}
              canSite={canSite}
              onMore={canEvents ? () => openEvents(t('home.recentEvents'), {}) : undefined}
            />
          </Col>
        </Row>
      </Space>
      <EventsDrawer view={drawer} onClose={() => setDrawer(null)} />
    </div>
  );
}
