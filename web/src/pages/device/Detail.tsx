/**
 * device/:listtype?/detail/:id/:type? — the device page: header (SN, name, live status, model,
 * site) and the tabs Device Details (basic info, runtime, configuration, alarms, logs, charts),
 * Remote Operations (the remote link panel, then the operations), Remote Sessions (remote/),
 * Issues (the device's tickets; an alarm makes one) and Security (security/: its security
 * profile and key). A storage unit (category 4 or 5, issue 26) opens on its Storage tab
 * (storage/) and has no charging tabs (sessions, smart charging). The status follows the
 * push stream (30 s polling while it is down).
 */
import { lazy, Suspense, useState } from 'react';
import { Button, Card, Descriptions, Space, Tabs, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { usePageSubject } from '../../hooks/usePageSubject';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader, NotFoundResult } from '../../components/PageHeader';
import { DeviceStatus, EnabledBadge, YesNo } from '../../components/Flag';
import { ObjectImages } from '../../components/ObjectImage';
import { useCan } from '../../components/access';
import { DEVICE_READ_KEYS } from '../../access';
import { getDevice, deviceKeys } from '../../services/device';
import { formatTime } from '../../utils/time';
import { EventTable, useEventName } from '../../components/fleet';
import type { DeviceEvent } from '../../services/fleet';
import { useStatusStream } from '../../hooks/useStatusStream';
import { pollInterval } from '../../utils/fleet';
import { useDeviceActions } from '../../hooks/useDeviceActions';
import { ConfigTable, formatDuration, LogsSection, RuntimeSection, useRuntime } from './sections';
import { isEvseMode } from './evse';
import { categoryLabelKey, isStorageCategory } from '../../utils/categories';
import Remote from './Remote';
import RemoteLinkPanel from './remote/RemoteLinkPanel';
import SessionList from './remote/SessionList';

// ECharts lives in this chunk only
const Charts = lazy(() => import('./Charts'));
// Tickets of the device and the ticket drawer (it carries the rich-text editor): loaded when used.
const DeviceIssues = lazy(() => import('../issue/DeviceIssues'));
const TicketDrawer = lazy(() => import('../issue/TicketDrawer'));
// Charging sessions of the device (pages/session/): loaded when the tab opens.
const SessionTab = lazy(() => import('../session/SessionTab'));
// The device's security profile and key (docs/security-profiles.md): loaded when the tab opens.
const SecurityTab = lazy(() => import('./security/SecurityTab'));
// The charger's local authorization list (docs/tokens.md): loaded when the header shows it.
const LocalListButton = lazy(() => import('../token/LocalListButton'));
// Charging profiles, composite schedule and load management (power/, issue 25): loaded when the tab opens.
const SmartChargingTab = lazy(() => import('./power/SmartChargingTab'));
// A storage unit's values, flow, charts, alarms and commands (storage/, issue 26): loaded when the tab opens.
const StorageTab = lazy(() => import('./storage/StorageTab'));

const TABS = ['details', 'storage', 'remote', 'sessions', 'charging', 'smart', 'issues', 'security'] as const;

/** The charging sessions tab: for an OCPP 2.0.1 device the connector column is the EVSE's. */
function DeviceSessionTab({ id, streamUp }: { id: number; streamUp: boolean }) {
  const r = useRuntime(id, streamUp).data;
  return <SessionTab deviceId={id} evse={!!r && isEvseMode(r.protocol, r.connectors)} />;
}

function NotAllowed() {
  const { t } = useTranslation();
  return <Typography.Paragraph type="secondary">{t('remote.notAllowed')}</Typography.Paragraph>;
}

export default function DeviceDetail() {
  const { t } = useTranslation();
  const { id: idText, type, listtype } = useParams();
  const id = Number(idText);
  const can = useCan();
  const navigate = useNavigate();
  const streamUp = useStatusStream();
  const q = useQuery({ queryKey: deviceKeys.detail(id), queryFn: () => getDevice(id), enabled: id > 0, retry: false, refetchInterval: pollInterval(streamUp) });
  const actions = useDeviceActions(() => void navigate('/manage/device/list'));
  const eventName = useEventName();
  const [alarm, setAlarm] = useState<DeviceEvent>();
  usePageSubject(q.data?.sn);
  if (!(id > 0) || q.isError) return <NotFoundResult />;
  const d = q.data;
  const storage = !!d && isStorageCategory(d.category);
  // the tab the page opens on (its URL has no tab): a storage unit's Storage tab, else the
  // details; none until the device is in, so a storage unit's details are not read on the way
  const home = storage && can(DEVICE_READ_KEYS) ? 'storage' : 'details';
  const tab = (TABS as readonly string[]).includes(type ?? '') ? (type as string) : d ? home : '';
  const base = `/manage/device/${listtype ? `${listtype}/` : ''}detail/${id}`;
  const storageTab = home === 'storage'
    ? [
        {
          key: 'storage',
          label: <span data-testid="device-tab-storage">{t('device.tab.storage')}</span>,
          children: d && tab === 'storage' && (
            <Suspense fallback={<Card loading />}>
              <StorageTab device={d} />
            </Suspense>
          ),
        },
      ]
    : [];
  return (
    <div data-testid="device-detail">
      <PageHeader
        back="/manage/device/list"
        title={d ? `${d.sn} · ${d.name}` : ''}
        sub={d && <DeviceStatus status={d.status} />}
        extra={
          d &&
          can('auth_device_edit') && (
            <>
              <Button onClick={() => void navigate(`/manage/device/update/${id}`)}>{t('com_edit')}</Button>
              <Button onClick={() => actions.enable(d)}>{d.enabled ? t('com_disable') : t('com_enable')}</Button>
              <Button onClick={() => actions.maintained(d)}>{t('device.maintained')}</Button>
              {can('auth_device_delete') && (
                <Button danger onClick={() => actions.remove(d)} data-testid="device-delete">
                  {t('com_delete')}
                </Button>
              )}
            </>
          )
        }
      />
      {d && (
        <Space wrap style={{ marginBottom: 8 }} data-testid="device-header">
          <Typography.Text type="secondary">{t('device.model')}:</Typography.Text>
          <Tag>{d.modelName}</Tag>
          <Typography.Text type="secondary">{t('device.site')}:</Typography.Text>
          {can('auth_site_detail') ? <Link to={`/manage/site/detail/${d.siteId}`}>{d.siteName}</Link> : <Tag>{d.siteName}</Tag>}
          <EnabledBadge enabled={d.enabled} />
          {d.maintainMode && <Tag color="orange">{t('device.maintainMode')}</Tag>}
          {d.maintenanceDue && <Tag color="red">{t('device.maintenanceDue')}</Tag>}
          {can('auth_token_list') && (
            <Suspense fallback={null}>
              <LocalListButton deviceId={id} sn={d.sn} />
            </Suspense>
          )}
        </Space>
      )}
      <Tabs
        activeKey={tab}
        onChange={(k) => void navigate(k === home ? base : `${base}/${k}`)}
        items={[
          ...storageTab,
          {
            key: 'details',
            label: t('device.tab.details'),
            children: (
              <>
                <Card title={t('device.basicInfo')} loading={q.isPending} style={{ marginBottom: 16 }}>
                  {d && (
                    <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }}>
                      <Descriptions.Item label={t('device.sn')}>{d.sn}</Descriptions.Item>
                      <Descriptions.Item label={t('device.name')}>{d.name}</Descriptions.Item>
                      <Descriptions.Item label={t('device.status')}>
                        <DeviceStatus status={d.status} />
                      </Descriptions.Item>
                      <Descriptions.Item label={t('device.model')}>{d.modelName}</Descriptions.Item>
                      <Descriptions.Item label={t('device.category')}>
                        <span data-testid="device-detail-category" data-value={d.category}>{categoryLabelKey(d.category) ? t(categoryLabelKey(d.category)!) : '-'}</span>
                      </Descriptions.Item>
                      <Descriptions.Item label={t('device.customer')}>{d.customerName}</Descriptions.Item>
                      <Descriptions.Item label={t('device.site')}>{d.siteName}</Descriptions.Item>
                      <Descriptions.Item label={t('device.softwareVersion')}>{d.softwareVersion || '-'}</Descriptions.Item>
                      <Descriptions.Item label={t('device.installDate')}>{d.installDate || '-'}</Descriptions.Item>
                      <Descriptions.Item label={t('device.arrivalDate')}>{d.arrivalDate || '-'}</Descriptions.Item>
                      <Descriptions.Item label={t('device.maintenanceCycle')}>{`${d.maintenanceCycle} ${t('com_days')}`}</Descriptions.Item>
                      <Descriptions.Item label={t('device.unmaintainedDays')}>{`${d.unmaintainedDays} ${t('com_days')}`}</Descriptions.Item>
                      <Descriptions.Item label={t('device.maintainMode')}>
                        <YesNo value={d.maintainMode} />
                      </Descriptions.Item>
                      <Descriptions.Item label={t('device.totalRuntime')}>{formatDuration(d.totalRuntime, t)}</Descriptions.Item>
                      <Descriptions.Item label={t('device.lastRefresh')}>{formatTime(d.lastRefreshAt)}</Descriptions.Item>
                      <Descriptions.Item label={t('com_create_time')}>{formatTime(d.createdAt)}</Descriptions.Item>
                      <Descriptions.Item label={t('device.images')} span="filled">
                        <ObjectImages values={d.images} testId="device-images" />
                      </Descriptions.Item>
                    </Descriptions>
                  )}
                </Card>
                {d && (
                  <>
                    <RuntimeSection id={id} streamUp={streamUp} />
                    <Card title={t('device.section.config')} style={{ marginBottom: 16 }} data-testid="section-config">
                      <ConfigTable id={id} />
                    </Card>
                    <Card title={t('device.section.alarms')} style={{ marginBottom: 16 }} data-testid="section-alarms">
                      <EventTable deviceId={id} testId="device-alarms" onCreateTicket={can('auth_issue_add') ? setAlarm : undefined} />
                    </Card>
                    <LogsSection deviceId={id} sn={d.sn} canProtocol={can('auth_logs_protocol')} />
                    <Suspense fallback={<Card loading />}>
                      <Charts id={id} streamUp={streamUp} />
                    </Suspense>
                  </>
                )}
              </>
            ),
          },
          {
            key: 'remote',
            label: t('device.tab.remote'),
            children: d && (
              <>
                <RemoteLinkPanel device={d} />
                {can('auth_device_edit') ? <Remote device={d} streamUp={streamUp} /> : <NotAllowed />}
              </>
            ),
          },
          {
            key: 'sessions',
            label: t('rlink.tab.sessions'),
            children: d && tab === 'sessions' && <SessionList deviceId={id} />,
          },
          ...(!storage && can(['auth_session_list', 'auth_device_detail'])
            ? [
                {
                  key: 'charging',
                  label: t('menu.session'),
                  children: d && tab === 'charging' && (
                    <Suspense fallback={<Card loading />}>
                      <DeviceSessionTab id={id} streamUp={streamUp} />
                    </Suspense>
                  ),
                },
              ]
            : []),
          ...(!storage && can(DEVICE_READ_KEYS)
            ? [
                {
                  key: 'smart',
                  label: <span data-testid="device-tab-smart">{t('device.tab.smart')}</span>,
                  children: d && tab === 'smart' && (
                    <Suspense fallback={<Card loading />}>
                      <SmartChargingTab device={d} />
                    </Suspense>
                  ),
                },
              ]
            : []),
          {
            key: 'issues',
            label: t('device.tab.issues'),
            children: d && (
              <Suspense fallback={<Card loading />}>
                <DeviceIssues device={d} />
              </Suspense>
            ),
          },
          {
            key: 'security',
            label: t('device.tab.security'),
            children: d && tab === 'security' && (
              <Suspense fallback={<Card loading />}>
                <SecurityTab key={`${d.id}-${d.securityProfile}`} device={d} />
              </Suspense>
            ),
          },
        ]}
      />
      {!d && tab === '' && <Card loading data-testid="device-loading" />}
      {d && alarm && (
        <Suspense fallback={null}>
          <TicketDrawer
            open
            onClose={() => setAlarm(undefined)}
            device={d}
            alarm={{ id: alarm.id, name: eventName(alarm.code, alarm.name), level: alarm.level, startedAt: alarm.startedAt }}
          />
        </Suspense>
      )}
    </div>
  );
}
