/**
 * device/list — devices with filters (status, alarm, customer, site, model, SN or name prefix,
 * offline for longer than 1 h / 24 h / 7 d, server-side sorting by SN, name, status, last refresh
 * and creation,
 * and `restarting=1|0` from the home dashboard's links, shown as a removable tag),
 * status badges with counts, add/import/export, enable/disable, maintenance and delete. Status
 * is live (push stream; 30 s polling while it is down); selected rows get a batch operation.
 */
import { DEVICE_READ_KEYS } from '../../access';
import { useState } from 'react';
import { Alert, Badge, Button, Dropdown, Segmented, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage, { type FilterField } from '../../components/ListPage';
import { DeviceStatus } from '../../components/Flag';
import { LiveBadge } from '../../components/fleet';
import { useCan } from '../../components/access';
import { useActions } from '../../hooks/useActions';
import { listQuery, readListState, useListState, type ListController } from '../../hooks/useListState';
import { queryClient } from '../../services/queryClient';
import { useCustomerOptions, useModelOptions, useSiteOptions } from '../../hooks/useOptions';
import { DEVICE_STATUSES, deleteDevices, deviceStatusCounts, enableDevices, exportDevices, listDevices, maintainDevices, maintainedDevices, deviceKeys } from '../../services/device';
import type { Device } from '../../services/typings';
import { formatClock, zoneNow } from '../../utils/time';
import { liveFetcher, useStatusStream } from '../../hooks/useStatusStream';
import { pollInterval, statusBadges, statusCountFilter } from '../../utils/fleet';
import { deferred } from '../../components/deferred';
import SelectionButton from '../../components/SelectionButton';
import PendingBanner from './PendingBanner';

// the import and batch dialogs are fetched when first opened: not part of the list's first load
const ImportModal = deferred<{ open: boolean; onClose(): void }>(() => import('./ImportModal'), () => null);
const BatchModal = deferred<{ devices: Device[]; open: boolean; onClose(): void }>(() => import('./BatchModal'), () => null);

const SPEC = {
  status: 'number',
  alarmStatus: 'number',
  customerId: 'number',
  siteId: 'number',
  modelId: 'number',
  keyword: 'string',
  restarting: 'number',
  offlineFor: 'number',
} as const;
/** The "offline for longer than" choices (seconds; issue 30 item 7). */
const OFFLINE_FOR = [3600, 86400, 604800];
const EMBEDDED_SPEC = { status: 'number', keyword: 'string' } as const;
/** Columns a fixed filter makes the same on every row: a site's devices share their site and customer. */
const FIXED_COLUMNS: Record<string, string[]> = { siteId: ['siteName', 'customerName'], customerId: ['customerName'] };

/** Row/detail actions on devices, each confirmed. */
export function useDeviceActions(onDeleted?: () => void) {
  const { t } = useTranslation();
  const { confirm } = useActions();
  const invalidate = [deviceKeys.lists, deviceKeys.details, deviceKeys.counts];
  return {
    enable: (d: Device) =>
      confirm(() => enableDevices([d.id], !d.enabled), { title: t(d.enabled ? 'device.confirmDisable' : 'device.confirmEnable', { name: d.sn }), invalidate }),
    maintain: (d: Device) =>
      confirm(() => maintainDevices([d.id], !d.maintainMode), {
        title: t(d.maintainMode ? 'device.confirmMaintainOff' : 'device.confirmMaintainOn', { name: d.sn }),
        invalidate,
      }),
    maintained: (d: Device) => confirm(() => maintainedDevices([d.id]), { title: t('device.confirmMaintained', { name: d.sn }), content: t('device.maintainedHint'), invalidate }),
    remove: (d: Device) => confirm(() => deleteDevices([d.id]), { title: t('com_confirm_delete', { name: d.sn }), danger: true, invalidate, onDone: onDeleted }),
  };
}

/** The device columns; `omit` drops columns a fixed filter makes the same on every row (a site's devices). */
function useColumns(omit: string[] = []): ColumnsType<Device> {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const actions = useDeviceActions();
  const nowrap = (text: string) => <span style={{ whiteSpace: 'nowrap' }}>{text}</span>;
  // a time column's title with its zone on a second line, so the header is no wider than the times
  const zoned = (title: string) => (
    <span data-zone={zoneNow()}>
      {title}
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, fontWeight: 'normal' }}>
        {zoneNow()}
      </Typography.Text>
    </span>
  );
  const columns: ColumnsType<Device> = [
    {
      title: t('device.sn'),
      dataIndex: 'sn',
      key: 'sn',
      fixed: 'left',
      sorter: true,
      render: (v: string, r) => (can(DEVICE_READ_KEYS) ? <Link to={`/manage/device/detail/${r.id}`}>{v}</Link> : v),
    },
    { title: t('device.name'), dataIndex: 'name', key: 'name', sorter: true, width: 110, ellipsis: true },
    { title: t('device.status'), dataIndex: 'status', key: 'status', sorter: true, render: (v: number) => <DeviceStatus status={v} /> },
    {
      title: t('device.alarmStatus'),
      dataIndex: 'alarmStatus',
      key: 'alarmStatus',
      render: (v: number) => <Badge status={v === 2 ? 'error' : v ? 'warning' : 'success'} text={t(`device.alarm.${v === 2 ? 2 : v ? 1 : 0}`)} />,
    },
    // long names end in an ellipsis (the whole name on hover) instead of pushing columns off-screen
    { title: t('device.model'), dataIndex: 'modelName', key: 'modelName', width: 100, ellipsis: true },
    { title: t('device.site'), dataIndex: 'siteName', key: 'siteName', width: 100, ellipsis: true },
    { title: t('device.customer'), dataIndex: 'customerName', key: 'customerName', width: 100, ellipsis: true },
    { title: t('device.enabled'), dataIndex: 'enabled', key: 'enabled', width: 90, ellipsis: true, render: (v: boolean) => (v ? t('com_enabled') : t('com_disabled')) },
    // the zone once in the header, not in every cell: both times stay in view at 1440 px
    { title: zoned(t('device.lastRefresh')), dataIndex: 'lastRefreshAt', key: 'lastRefreshAt', sorter: true, render: (v: number) => nowrap(formatClock(v)) },
    { title: zoned(t('com_create_time')), dataIndex: 'createdAt', key: 'id', sorter: true, render: (v: number) => nowrap(formatClock(v)) },
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
  return columns.filter((c) => !omit.includes(String(c.key)));
}

/** The URL's `restarting=1|0` as the server's boolean (absent: either). */
function restartingOf(v: unknown): boolean | undefined {
  return v === 1 ? true : v === 0 ? false : undefined;
}

/** The list call with `restarting` sent as a boolean. */
const liveFetch = liveFetcher((q: Record<string, unknown>) => {
  const { restarting, ...rest } = q;
  const r = restartingOf(restarting);
  return listDevices(r === undefined ? rest : { ...rest, restarting: r });
});

function TotalMore() {
  const { t } = useTranslation();
  return <Alert type="warning" showIcon message={t('device.totalMore')} data-testid="device-total-more" />;
}

const countQuery = (filters: ListController['filters']) => {
  const f = statusCountFilter(filters);
  return { queryKey: deviceKeys.count(f), queryFn: () => deviceStatusCounts(f), staleTime: 10_000 };
};

/** The route loader's head start: the rows and counts for this URL, asked for while the page's route resolves. */
export function prefetch(url: URL) {
  const state = readListState(url.searchParams, SPEC);
  const q = listQuery(state);
  void queryClient.prefetchQuery({ queryKey: deviceKeys.page(q), queryFn: () => liveFetch(q) });
  void queryClient.prefetchQuery(countQuery(state.filters));
}

/** Status segments with counts (badges) that set the status filter. */
function StatusBar({ list }: { list: ListController }) {
  const { t } = useTranslation();
  const counts = useQuery({ ...countQuery(list.filters), placeholderData: keepPreviousData });
  const f = statusCountFilter(list.filters);
  const badges = statusBadges(counts.data ?? {}, DEVICE_STATUSES, Object.keys(f).length > 0);
  const current = list.filters.status === undefined ? 'all' : String(list.filters.status);
  return (
    <Segmented
      data-testid="device-status-bar"
      value={current}
      onChange={(v) => list.search({ ...list.filters, status: v === 'all' ? undefined : Number(v) })}
      options={[
        { value: 'all', label: `${t('device.status.all')} (${badges.all})` },
        ...DEVICE_STATUSES.map((s) => ({ value: String(s), label: `${t(`device.status.${s}`)} (${badges.by[s]})` })),
      ]}
    />
  );
}

export default function DeviceList() {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const urlList = useListState(SPEC);
  // the search form has no restarting field: a search keeps it; its tag removes it
  const list: ListController = { ...urlList, search: (f) => urlList.search({ ...f, restarting: f.restarting ?? urlList.filters.restarting }) };
  const restarting = restartingOf(list.filters.restarting);
  const [importing, setImporting] = useState(false);
  const [imported, setImported] = useState(false); // the import dialog was opened once (fetched)
  const [exporting, setExporting] = useState(false);
  const customers = useCustomerOptions();
  const sites = useSiteOptions(list.filters.customerId as number | undefined);
  const models = useModelOptions();
  const columns = useColumns();
  const streamUp = useStatusStream();
  const [selected, setSelected] = useState<Device[]>([]);
  const [batch, setBatch] = useState(false);
  const [batched, setBatched] = useState(false); // the batch dialog was opened once (fetched)
  const filters: FilterField[] = [
    { name: 'keyword', label: t('device.keyword'), placeholder: t('device.keywordHint') },
    { name: 'customerId', label: t('device.customer'), options: customers },
    { name: 'siteId', label: t('device.site'), options: sites },
    { name: 'modelId', label: t('device.model'), options: models },
    { name: 'alarmStatus', label: t('device.alarmStatus'), width: 120, options: [0, 1, 2].map((v) => ({ value: v, label: t(`device.alarm.${v}`) })) },
    { name: 'offlineFor', label: t('device.offlineFor'), width: 120, options: OFFLINE_FOR.map((v) => ({ value: v, label: t(`device.offlineFor.${v}`) })) },
  ];
  const doExport = async () => {
    setExporting(true);
    try {
      const { page: _p, pageSize: _ps, restarting: _r, ...f } = list.query;
      void _p;
      void _ps;
      void _r;
      await exportDevices(restarting === undefined ? f : { ...f, restarting });
    } catch {
      /* toasted */
    } finally {
      setExporting(false);
    }
  };
  return (
    <>
      <PendingBanner />
      <ListPage<Device>
        list={list}
        queryKey={deviceKeys.lists}
        fetcher={liveFetch}
        columns={columns}
        filters={filters}
        testId="device-list"
        columnsId="device-list"
        refetchInterval={pollInterval(streamUp)}
        rowSelection={
          can('auth_device_edit')
            ? { selectedRowKeys: selected.map((d) => d.id), onChange: (_k, rows) => setSelected(rows), preserveSelectedRowKeys: true }
            : undefined
        }
        header={(d) => (
          <>
            <Space wrap>
              <StatusBar list={list} />
              {restarting !== undefined && (
                <Tag closable color="blue" onClose={() => urlList.search({ ...urlList.filters, restarting: undefined })} data-testid="device-filter-restarting" data-value={restarting ? '1' : '0'}>
                  {t(`device.restarting.${restarting ? 1 : 0}`)}
                </Tag>
              )}
              <LiveBadge up={streamUp} />
            </Space>
            {d?.totalMore && <TotalMore />}
          </>
        )}
        toolbar={
          <>
            {can('auth_device_add') && (
              <>
                <Button type="primary" onClick={() => void navigate('/manage/device/add')} data-testid="device-add">
                  {t('menu.device.add')}
                </Button>
                <Button onClick={() => { setImporting(true); setImported(true); }} data-testid="device-import">
                  {t('device.import')}
                </Button>
              </>
            )}
            <Button loading={exporting} onClick={() => void doExport()} data-testid="device-export">
              {t('device.export')}
            </Button>
            {can('auth_device_edit') && (
              <SelectionButton count={selected.length} onClick={() => { setBatch(true); setBatched(true); }} data-testid="device-batch">
                {t('batch.button', { count: selected.length })}
              </SelectionButton>
            )}
          </>
        }
      />
      {imported && <ImportModal open={importing} onClose={() => setImporting(false)} />}
      {batched && <BatchModal open={batch} devices={selected} onClose={() => setBatch(false)} />}
    </>
  );
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
