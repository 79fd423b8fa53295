/**
 * The device table's parts, shared by the device list (pages/device/List.tsx) and a site's
 * devices (pages/site/devices/): columns, the live list call, and the devices of a fixed filter.
 */
import { DEVICE_READ_KEYS } from '../access';
import { Alert, Badge, Dropdown, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { QueryKey } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage from './ListPage';
import { DeviceStatus } from './Flag';
import { useCan } from './access';
import { useListState } from '../hooks/useListState';
import { DEVICE_STATUSES, listDevices } from '../services/device';
import type { Device } from '../services/typings';
import { formatClock } from '../utils/time';
import ZonedTitle from './ZonedTitle';
import { liveFetcher, useStatusStream } from '../hooks/useStatusStream';
import { pollInterval } from '../utils/fleet';
import { categoryLabelKey } from '../utils/categories';
import { useDeviceActions } from '../hooks/useDeviceActions';


const EMBEDDED_SPEC = { status: 'number', keyword: 'string' } as const;
/** Columns a fixed filter makes the same on every row: a site's devices share their site and customer. */
const FIXED_COLUMNS: Record<string, string[]> = { siteId: ['siteName', 'customerName'], customerId: ['customerName'], category: ['category'] };

/**
 * The device columns; `omit` drops columns a fixed filter makes the same on every row (a site's
 * devices); `hiddenByDefault` columns show once the user picks them in the column settings.
 */
export function useColumns(omit: string[] = [], hiddenByDefault: string[] = []): ColumnsType<Device> {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const actions = useDeviceActions();
  const nowrap = (text: string) => <span style={{ whiteSpace: 'nowrap' }}>{text}</span>;
  const columns: ColumnsType<Device> = [
    {
      title: t('device.sn'),
      dataIndex: 'sn',
      key: 'sn',
      fixed: 'left',
      sorter: true,
      render: (v: string, r) => (can(DEVICE_READ_KEYS) ? <Link to={`/manage/device/detail/${r.id}`}>{v}</Link> : v),
    },
    { title: t('device.name'), dataIndex: 'name', key: 'name', sorter: true, width: 100, ellipsis: true },
    { title: t('device.status'), dataIndex: 'status', key: 'status', sorter: true, render: (v: number) => <DeviceStatus status={v} /> },
    {
      title: t('device.alarmStatus'),
      dataIndex: 'alarmStatus',
      key: 'alarmStatus',
      render: (v: number) => <Badge status={v === 2 ? 'error' : v ? 'warning' : 'success'} text={t(`device.alarm.${v === 2 ? 2 : v ? 1 : 0}`)} />,
    },
    // long names end in an ellipsis (the whole name on hover) instead of pushing columns off-screen
    { title: t('device.model'), dataIndex: 'modelName', key: 'modelName', width: 90, ellipsis: true },
    // the site device category: its model's device type (issue 26); narrow like the model, the whole name on hover
    {
      title: t('device.category'),
      dataIndex: 'category',
      key: 'category',
      width: 90,
      ellipsis: true,
      render: (v: number) => {
        const k = categoryLabelKey(v);
        return (
          <span data-testid="device-category" data-value={v} title={k ? t(k) : undefined}>
            {k ? t(k) : '-'}
          </span>
        );
      },
    },
    { title: t('device.site'), dataIndex: 'siteName', key: 'siteName', width: 90, ellipsis: true },
    { title: t('device.customer'), dataIndex: 'customerName', key: 'customerName', width: 90, ellipsis: true },
    // no Enabled column: a disabled device's status is Disabled (decisions §2), a status the bar above filters
    // the zone once in the header, not in every cell: both times stay in view at 1440 px
    { title: <ZonedTitle title={t('device.lastRefresh')} />, dataIndex: 'lastRefreshAt', key: 'lastRefreshAt', sorter: true, render: (v: number) => nowrap(formatClock(v)) },
    { title: <ZonedTitle title={t('com_create_time')} />, dataIndex: 'createdAt', key: 'id', sorter: true, render: (v: number) => nowrap(formatClock(v)) },
    {
      title: t('com_actions'),
      key: 'actions',
      fixed: 'right',
      width: 110,
      render: (_: unknown, r) =>
        can('auth_device_edit') && (
          <Space style={{ whiteSpace: 'nowrap' }}>
            <a onClick={() => void navigate(`/manage/device/update/${r.id}`)}>{t('com_edit')}</a>
            <Dropdown
              menu={{
                items: [
                  { key: 'enable', label: r.enabled ? t('com_disable') : t('com_enable'), onClick: () => actions.enable(r) },
                  { key: 'maintain', label: r.maintainMode ? t('device.maintainOff') : t('device.maintainOn'), onClick: () => actions.maintain(r) },
                  { key: 'maintained', label: t('device.maintained'), onClick: () => actions.maintained(r) },
                  ...(can('auth_device_delete') ? [{ key: 'delete', danger: true, label: t('com_delete'), onClick: () => actions.remove(r) }] : []),
                ],
              }}
            >
              <a>{t('com_more')}</a>
            </Dropdown>
          </Space>
        ),
    },
  ];
  return columns.filter((c) => !omit.includes(String(c.key))).map((c) => (hiddenByDefault.includes(String(c.key)) ? { ...c, hidden: true } : c));
}

/** The URL's `restarting=1|0` as the server's boolean (absent: either). */
export function restartingOf(v: unknown): boolean | undefined {
  return v === 1 ? true : v === 0 ? false : undefined;
}

/** The list call with `restarting` sent as a boolean. */
export const liveFetch = liveFetcher((q: Record<string, unknown>) => {
  const { restarting, ...rest } = q;
  const r = restartingOf(restarting);
  return listDevices(r === undefined ? rest : { ...rest, restarting: r });
});

export function TotalMore() {
  const { t } = useTranslation();
  return <Alert type="warning" showIcon message={t('device.totalMore')} data-testid="device-total-more" />;
}

/** Devices of a fixed filter (a site's devices tab): same columns, state kept in memory. */
export function DeviceTable({ fixed, queryKey }: { fixed: Record<string, unknown>; queryKey: QueryKey }) {
  const { t } = useTranslation();
  const list = useListState(EMBEDDED_SPEC, '', true);
  const columns = useColumns(Object.keys(fixed).flatMap((k) => FIXED_COLUMNS[k] ?? []));
  const streamUp = useStatusStream();
  return (
    <ListPage<Device>
      list={list}
      queryKey={queryKey}
      fetcher={(q) => liveFetch({ ...q, ...fixed })}
      refetchInterval={pollInterval(streamUp)}
      columns={columns}
      filters={[
        { name: 'keyword', label: t('device.keyword') },
        { name: 'status', label: t('device.status'), width: 140, options: DEVICE_STATUSES.map((s) => ({ value: s, label: t(`device.status.${s}`) })) },
      ]}
      header={(d) => d?.totalMore && <TotalMore />}
      columnsId="device-table"
    />
  );
}
