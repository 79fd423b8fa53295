/**
 * system/list (auth_black_device) — device blacklist (add, delete), pending devices (unknown SNs
 * that tried to connect: add as a device, or blacklist), refused connections, and the
 * charge-point CA with the fleet's client certificates (CATab, loaded with its tab). The tab and
 * the active tab's filters and paging are in the URL (`?tab=blacklist|pending|refusals|ca`).
 */
import { lazy, Suspense } from 'react';
import { Card, Form, Input, Space, Tabs, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage, { AddButton } from '../../../components/ListPage';
import FormDrawer, { useDrawer } from '../../../components/FormDrawer';
import { useCan } from '../../../components/access';
import { useActionsColumn } from '../../../components/RowActions';
import { useActions } from '../../../hooks/useActions';
import { useListState } from '../../../hooks/useListState';
import { addBlacklist, deleteBlacklist, listBlacklist, listPending, listRefusals, type BlacklistEntry, type BlacklistInput, type PendingDevice, type Refusal, fleetKeys } from '../../../services/fleet';
import { formatTime } from '../../../utils/time';
import { isValidSN } from '../../../utils/validators';

const SPEC = { sn: 'string' } as const;
const TABS = ['blacklist', 'pending', 'refusals', 'ca'] as const;
const CATab = lazy(() => import('./CATab'));

function BlacklistTab() {
  const { t } = useTranslation();
  const list = useListState(SPEC);
  const drawer = useDrawer<BlacklistEntry>();
  const { run } = useActions();
  const actions = useActionsColumn();
  const columns: ColumnsType<BlacklistEntry> = [
    { title: t('device.sn'), dataIndex: 'sn', key: 'sn' },
    { title: t('blacklist.mac'), dataIndex: 'mac', key: 'mac', render: (v: string) => v || '-' },
    { title: t('blacklist.protocolVersion'), dataIndex: 'protocolVersion', key: 'protocolVersion', render: (v: string) => v || '-' },
    { title: t('blacklist.createdBy'), dataIndex: 'createdBy', key: 'createdBy', render: (v: string) => v || '-' },
    { title: t('com_create_time'), dataIndex: 'createdAt', key: 'createdAt', render: (v: number) => formatTime(v) },
    actions<BlacklistEntry>({ remove: (r) => ({ name: r.sn, call: () => deleteBlacklist([r.id]), invalidate: [fleetKeys.blacklist] }) }),
  ];
  return (
    <>
      <ListPage<BlacklistEntry>
        list={list}
        queryKey={fleetKeys.blacklist}
        fetcher={listBlacklist}
        columns={columns}
        testId="blacklist"
        filters={[{ name: 'sn', label: t('device.sn') }]}
        toolbar={<AddButton onClick={drawer.add} testId="blacklist-add" label={t('blacklist.add')} />}
      />
      <FormDrawer<BlacklistInput>
        open={drawer.open}
        title={t('blacklist.add')}
        onClose={drawer.close}
        onSubmit={(v) => run(() => addBlacklist({ sn: v.sn?.trim(), mac: v.mac?.trim() ?? '', protocolVersion: v.protocolVersion?.trim() ?? '' }), { invalidate: [fleetKeys.blacklist, fleetKeys.pending] })}
        testId="blacklist-form"
      >
        <Form.Item
          name="sn"
          label={t('device.sn')}
          rules={[
            { required: true, message: t('com_value_required') },
            { validator: (_, v: string) => (!v || isValidSN(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t('device.snRule')))) },
          ]}
        >
          <Input data-testid="blacklist-sn" />
        </Form.Item>
        <Form.Item name="mac" label={t('blacklist.mac')} rules={[{ max: 64 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="protocolVersion" label={t('blacklist.protocolVersion')} rules={[{ max: 32 }]}>
          <Input placeholder="ocpp1.6" />
        </Form.Item>
      </FormDrawer>
    </>
  );
}

function PendingTab() {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const list = useListState(SPEC);
  const { confirm } = useActions();
  const columns: ColumnsType<PendingDevice> = [
    { title: t('device.sn'), dataIndex: 'sn', key: 'sn' },
    { title: t('pending.vendor'), dataIndex: 'vendor', key: 'vendor', render: (v: string) => v || '-' },
    { title: t('pending.model'), dataIndex: 'model', key: 'model', render: (v: string) => v || '-' },
    { title: t('pending.firmware'), dataIndex: 'firmwareVersion', key: 'firmwareVersion', render: (v: string) => v || '-' },
    { title: t('blacklist.protocolVersion'), dataIndex: 'protocolVersion', key: 'protocolVersion', render: (v: string) => v || '-' },
    { title: t('refusal.address'), dataIndex: 'remoteAddr', key: 'remoteAddr', render: (v: string) => v || '-' },
    { title: t('refusal.protocols'), dataIndex: 'protocols', key: 'protocols', render: (v: string) => (v ? <span translate="no">{v}</span> : '-') },
    { title: t('refusal.count'), dataIndex: 'count', key: 'count' },
    { title: t('refusal.firstSeen'), dataIndex: 'firstSeen', key: 'firstSeen', render: (v: number) => formatTime(v) },
    { title: t('refusal.lastSeen'), dataIndex: 'lastSeen', key: 'lastSeen', render: (v: number) => formatTime(v) },
    {
      title: t('com_actions'),
      key: 'actions',
      fixed: 'right',
      render: (_: unknown, r) => (
        <Space>
          {can('auth_device_add') && (
            <a onClick={() => void navigate(`/manage/device/add/${encodeURIComponent(r.sn)}`)} data-testid={`pending-add-${r.sn}`}>
              {t('pending.addDevice')}
            </a>
          )}
          <a
            onClick={() =>
              confirm(() => addBlacklist({ sn: r.sn, mac: '', protocolVersion: r.protocolVersion }), {
                title: t('pending.confirmBlacklist', { sn: r.sn }),
                danger: true,
                invalidate: [fleetKeys.blacklist, fleetKeys.pending],
              })
            }
            data-testid={`pending-blacklist-${r.sn}`}
          >
            {t('pending.blacklist')}
          </a>
        </Space>
      ),
    },
  ];
  return <ListPage<PendingDevice> list={list} queryKey={fleetKeys.pending} fetcher={listPending} columns={columns} testId="pending-devices" filters={[{ name: 'sn', label: t('device.sn') }]} />;
}

function RefusalsTab() {
  const { t } = useTranslation();
  const list = useListState(SPEC);
  const columns: ColumnsType<Refusal> = [
    { title: t('device.sn'), dataIndex: 'sn', key: 'sn' },
    { title: t('refusal.reason'), dataIndex: 'reason', key: 'reason', render: (v: string) => <Tag color="red">{t(`refusal.reason.${v}`, { defaultValue: v })}</Tag> },
    { title: t('refusal.address'), dataIndex: 'remoteAddr', key: 'remoteAddr', render: (v: string) => v || '-' },
    { title: t('refusal.protocols'), dataIndex: 'protocols', key: 'protocols', render: (v: string) => (v ? <span translate="no">{v}</span> : '-') },
    { title: t('refusal.count'), dataIndex: 'count', key: 'count' },
    { title: t('refusal.firstSeen'), dataIndex: 'firstSeen', key: 'firstSeen', render: (v: number) => formatTime(v) },
    { title: t('refusal.lastSeen'), dataIndex: 'lastSeen', key: 'lastSeen', render: (v: number) => formatTime(v) },
  ];
  return <ListPage<Refusal> list={list} queryKey={fleetKeys.refusals} fetcher={listRefusals} columns={columns} testId="refusals" filters={[{ name: 'sn', label: t('device.sn') }]} />;
}

export default function BlacklistPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as string) : 'blacklist';
  return (
    <Tabs
      activeKey={tab}
      destroyOnHidden
      onChange={(k) => setParams(k === 'blacklist' ? new URLSearchParams() : new URLSearchParams({ tab: k }))}
      items={[
        { key: 'blacklist', label: t('blacklist.tab.blacklist'), children: <BlacklistTab /> },
        { key: 'pending', label: t('blacklist.tab.pending'), children: <PendingTab /> },
        { key: 'refusals', label: t('blacklist.tab.refusals'), children: <RefusalsTab /> },
        {
          key: 'ca',
          label: t('blacklist.tab.ca'),
          children: (
            <Suspense fallback={<Card loading />}>
              <CATab />
            </Suspense>
          ),
        },
      ]}
    />
  );
}
