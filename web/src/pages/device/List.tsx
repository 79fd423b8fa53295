/**
 * device/list — devices with filters (status, alarm, customer, site, model, SN or name prefix,
 * offline for longer than 1 h / 24 h / 7 d, server-side sorting by SN, name, status, last refresh
 * and creation,
 * and `restarting=1|0` from the home dashboard's links, shown as a removable tag), protocol of
 * the last connection (OCPP 1.6, OCPP 2.0.1, MQTT) and site device category (`category=1-6`,
 * the home dashboard's category links; issue 26),
 * status badges with counts, add/import/export, enable/disable, maintenance and delete. Status
 * is live (push stream; 30 s polling while it is down); selected rows get a batch operation.
 */
import { useState } from 'react';
import { Button, Segmented, Space, Tag } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage, { type FilterField } from '../../components/ListPage';
import { LiveBadge } from '../../components/fleet';
import { useCan } from '../../components/access';
import { listQuery, readListState, useListState, type ListController } from '../../hooks/useListState';
import { queryClient } from '../../services/queryClient';
import { useCustomerOptions, useModelOptions, useSiteOptions } from '../../hooks/useOptions';
import { DEVICE_STATUSES, deviceStatusCounts, exportDevices, deviceKeys } from '../../services/device';
import type { Device } from '../../services/typings';
import { useStatusStream } from '../../hooks/useStatusStream';
import { pollInterval, statusBadges, statusCountFilter } from '../../utils/fleet';
import { CATEGORY_CODES, categoryLabelKey } from '../../utils/categories';
import { deferred } from '../../components/deferred';
import SelectionButton from '../../components/SelectionButton';
import PendingBanner from './PendingBanner';
import { useColumns, liveFetch, restartingOf, TotalMore } from '../../components/DeviceTable';

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
  protocol: 'string',
  category: 'number',
} as const;
/** The protocols a device's last connection may have spoken (internal/devstate Protocols): OCPP chargers, MQTT storage units. */
const PROTOCOLS = ['ocpp1.6', 'ocpp2.0.1', 'mqtt'];
/** "ocpp1.6" → "OCPP 1.6", "mqtt" → "MQTT": the protocol's own name, the same in every language. */
const protocolLabel = (p: string) => (p.startsWith('ocpp') ? p.replace(/^ocpp/, 'OCPP ') : p.toUpperCase());
/** The "offline for longer than" choices (seconds; issue 30 item 7). */
const OFFLINE_FOR = [3600, 86400, 604800];

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
  // the category column (issue 26) is the user's choice: at 1440 px it would push the times out of view
  const columns = useColumns([], ['category']);
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
    { name: 'protocol', label: t('device.protocol'), width: 130, options: PROTOCOLS.map((v) => ({ value: v, label: protocolLabel(v) })) },
    { name: 'category', label: t('device.category'), width: 150, options: CATEGORY_CODES.map((v) => ({ value: v, label: t(categoryLabelKey(v)!) })) },
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

