/**
 * site/detail/:id — site info with overview (statistics: Stats.tsx, administrators: Admins.tsx; the device categories
 * open the device list of the site and category), devices (chargers and storage units by category: devices/), faults and
 * events (dev/alarm/list of the site: alarms and faults; every event: alarms, faults, offline and unavailable, as home lists them). A site outside the caller's scope answers not found: the page says so, nothing else.
 */
import { lazy, Suspense } from 'react';
import { Button, Card, Descriptions, Tabs } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { usePageSubject } from '../../hooks/usePageSubject';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader, NotFoundResult } from '../../components/PageHeader';
import ObjectImage from '../../components/ObjectImage';
import { EventTable } from '../../components/fleet';
import { useCan } from '../../components/access';
import { getSite, siteOverview, SITE_ENABLED, siteKeys } from '../../services/site';
import DeviceCategories from '../../components/DeviceCategories';
import { ALARM_KINDS, EVENT_KINDS } from '../../services/fleet';
import { formatTime } from '../../utils/time';
import { SiteStatus } from './components/SiteStatus';
import { useSiteActions } from './hooks/useSiteActions';
import { deviceListOfCategory } from '../../utils/categories';
import SiteDevices from './devices/SiteDevices';
import SiteStats from './Stats';
import SiteAdmins from './Admins';

// Charging sessions of the site (pages/session/): loaded when the tab opens.
const SessionTab = lazy(() => import('../session/SessionTab'));
// The site's power limit and load management (power/, issue 25): loaded when the tab opens.
const PowerTab = lazy(() => import('./power/PowerTab'));

export default function SiteDetail() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const can = useCan();
  const navigate = useNavigate();
  const site = useQuery({ queryKey: siteKeys.detail(id), queryFn: () => getSite(id), enabled: id > 0, retry: false });
  const overview = useQuery({ queryKey: siteKeys.overview(id), queryFn: () => siteOverview(id), enabled: id > 0 && !!site.data });
  const actions = useSiteActions(() => void navigate('/manage/site/list'));
  usePageSubject(site.data?.name);

  if (!(id > 0) || site.isError) return <NotFoundResult subTitle={t('site.notFound')} />;
  const s = site.data;
  return (
    <div data-testid="site-detail">
      <PageHeader
        back="/manage/site/list"
        title={s?.name ?? ''}
        sub={s && <SiteStatus status={s.status} />}
        extra={
          s &&
          can('auth_site_edit') && (
            <>
              <Button onClick={() => void navigate(`/manage/site/update/${id}`)} data-testid="site-edit">
                {t('com_edit')}
              </Button>
              <Button onClick={() => actions.toggle(s)}>{s.status === SITE_ENABLED ? t('com_disable') : t('com_enable')}</Button>
              <Button danger onClick={() => actions.remove(s)}>
                {t('com_delete')}
              </Button>
            </>
          )
        }
      />
      <Tabs
        items={[
          {
            key: 'overview',
            label: t('site.tab.overview'),
            children: (
              <>
                <Card loading={site.isPending} style={{ marginBottom: 16 }}>
                  {s && (
                    <Descriptions bordered size="small" column={{ xs: 1, md: 2 }}>
                      <Descriptions.Item label={t('site.customer')}>{s.customerName}</Descriptions.Item>
                      <Descriptions.Item label={t('site.code')}>{s.code}</Descriptions.Item>
                      <Descriptions.Item label={t('site.contactPerson')}>{s.contactPerson || '-'}</Descriptions.Item>
                      <Descriptions.Item label={t('site.contactPhone')}>{s.contactPhone || '-'}</Descriptions.Item>
                      <Descriptions.Item label={t('site.buildDate')}>{s.buildDate || '-'}</Descriptions.Item>
                      <Descriptions.Item label={t('site.address')}>{s.address || '-'}</Descriptions.Item>
                      <Descriptions.Item label={t('site.image')}><ObjectImage value={s.image} height={64} testId="site-image" /></Descriptions.Item>
                      <Descriptions.Item label={t('site.receivers')}>{s.receivers.length}</Descriptions.Item>
                      <Descriptions.Item label={t('com_create_time')}>{formatTime(s.createdAt)}</Descriptions.Item>
                      <Descriptions.Item label={t('com_update_time')}>{formatTime(s.updatedAt)}</Descriptions.Item>
                    </Descriptions>
                  )}
                </Card>
                {s && (
                  <DeviceCategories
                    counts={overview.data?.categories}
                    loading={overview.isPending}
                    testId="site-categories"
                    linkOf={can('auth_device_list') ? (code) => deviceListOfCategory(code, { siteId: id }) : undefined}
                  />
                )}
                {s && <SiteStats siteId={id} />}
                {s && <SiteAdmins siteId={id} />}
              </>
            ),
          },
          ...(can('auth_device_list')
            ? [{ key: 'devices', label: <span data-testid="site-tab-devices">{t('site.tab.devices')}</span>, children: <SiteDevices siteId={id} counts={overview.data?.categories} /> }]
            : []),
          { key: 'faults', label: t('site.tab.faults'), children: <EventTable siteId={id} kinds={ALARM_KINDS} testId="site-faults" /> },
          // every event of the site, as home lists them: alarms and faults with offline and unavailable
          { key: 'events', label: t('site.tab.events'), children: <EventTable siteId={id} kinds={EVENT_KINDS} testId="site-events" /> },
          ...(can(['auth_site_power', 'auth_site_power_edit'])
            ? [
                {
                  key: 'power',
                  label: <span data-testid="site-tab-power">{t('site.tab.power')}</span>,
                  children: s && (
                    <Suspense fallback={<Card loading />}>
                      <PowerTab siteId={id} />
                    </Suspense>
                  ),
                },
              ]
            : []),
          {
            key: 'charging',
            label: t('menu.session'),
            children: (
              <Suspense fallback={<Card loading />}>
                <SessionTab siteId={id} />
              </Suspense>
            ),
          },
        ]}
      />
    </div>
  );
}
