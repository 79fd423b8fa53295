/**
 * Sections of the Device Details tab: runtime info (status, connectors, latest values with the
 * catalogue's units), configuration values read from the device, device logs (protocol rows and
 * command history). The alarm list is components/fleet EventTable; charts are Charts.tsx (lazy).
 */
import { Badge, Card, Descriptions, Empty, Space, Table, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType, TableProps } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import ListPage from '../../components/ListPage';
import { DeviceStatus, YesNo } from '../../components/Flag';
import { FirmwareStepTag, ResultBadge, useControlName, useOcppName } from '../../components/fleet';
import { commandsRunning } from '../../utils/firmwareSteps';
import { useCatalogue } from '../../hooks/useCatalogue';
import { displayItemName, type OcppKind } from '../../utils/names';
import { registerTexts } from '../../locales/domains';
import { meterTexts } from '../../locales/domains/meter';
import { ocpp201Texts } from '../../locales/domains/ocpp201';
import { formatPlugs, isEvseMode, statusColor } from './evse';
import { formatMeterValue, seriesDisplayName, storedUnit } from './meterFormat';
import { useListState } from '../../hooks/useListState';
import { listDataItems, catalogueKeys } from '../../services/catalogue';
import { getConfigValues, getRuntime, listCommands, type Command, type ConfigValue, type Connector, type RuntimeValue, fleetKeys } from '../../services/fleet';
import { pollInterval } from '../../utils/fleet';
import { formatTime } from '../../utils/time';
import { ProtocolLogTable } from '../../components/ProtocolLogTable';

registerTexts(meterTexts);
registerTexts(ocpp201Texts);

/** Seconds → "12 h 5 min". */
export function formatDuration(seconds: number, t: (k: string, o?: Record<string, unknown>) => string): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return t('duration.hm', { h, m });
}

/** name → unit of the data catalogue (dict/item/list), read once. */
export function useCatalogueUnits(): Record<string, string> {
  const q = useQuery({
    queryKey: catalogueKeys.units,
    staleTime: 300_000,
    queryFn: async () => {
      const units: Record<string, string> = {};
      for (let page = 1; page <= 10; page++) {
        const r = await listDataItems({ page, pageSize: 100 });
        for (const it of r.list) if (it.unit) units[it.name] = it.unit;
        if (page * 100 >= r.total) break;
      }
      return units;
    },
  });
  return q.data ?? {};
}

/** Firmware statuses of a job that goes on: its next steps change no device status, so nothing is pushed. */
const FIRMWARE_RUNNING = new Set(['Scheduled', 'Downloading', 'Downloaded', 'Installing']);
/** How often a running upgrade's runtime and command row are re-read. */
const PROGRESS_POLL_MS = 3_000;

export function useRuntime(id: number, streamUp: boolean) {
  return useQuery({
    queryKey: fleetKeys.runtime(id),
    queryFn: () => getRuntime(id),
    enabled: id > 0,
    refetchInterval: (q) => (FIRMWARE_RUNNING.has(q.state.data?.firmwareStatus ?? '') ? PROGRESS_POLL_MS : pollInterval(streamUp)),
  });
}

/** Runtime values that are a charger's progress report, shown by their name in the user's language (the enum on hover). */
const STATUS_VALUES: Record<string, OcppKind> = { FirmwareStatus: 'firmware', DiagnosticsStatus: 'diagnostics' };
const STATUS_VALUE_NAMES: Record<string, string> = { FirmwareStatus: 'runtime.firmwareStatus', DiagnosticsStatus: 'runtime.diagnosticsStatus' };

export function RuntimeSection({ id, streamUp }: { id: number; streamUp: boolean }) {
  const { t } = useTranslation();
  const q = useRuntime(id, streamUp);
  const units = useCatalogueUnits();
  const ocpp = useOcppName();
  const catalogue = useCatalogue();
  const r = q.data;
  const connectorCols: ColumnsType<Connector> = [
    { title: t('runtime.connector'), dataIndex: 'connectorId', key: 'connectorId' },
    { title: t('runtime.connectorStatus'), dataIndex: 'status', key: 'status', render: (v: string) => <Tag color={v === 'Faulted' ? 'red' : v === 'Available' ? 'green' : 'blue'}><span title={v}>{ocpp('connector', v)}</span></Tag> },
    { title: t('runtime.errorCode'), dataIndex: 'errorCode', key: 'errorCode', render: (v: string) => <span title={v}>{ocpp('error', v)}</span> },
    { title: t('runtime.vendorCode'), dataIndex: 'vendorCode', key: 'vendorCode', render: (v: string) => v || '-' },
    { title: t('runtime.info'), dataIndex: 'info', key: 'info', render: (v: string) => (v === 'Restarting' ? t('runtime.info.Restarting') : v || '-') },
    { title: t('meter.statusAt'), dataIndex: 'statusAt', key: 'statusAt', render: (v: number) => formatTime(v) },
    { title: t('com_update_time'), dataIndex: 'updatedAt', key: 'updatedAt', render: (v: number) => formatTime(v) },
  ];
  // OCPP 2.0.1: a row is an EVSE (the core's connector), with its own connectors' statuses
  const evse = !!r && isEvseMode(r.protocol, r.connectors);
  const [, statusCol, ...otherCols] = connectorCols;
  const evseCols: ColumnsType<Connector> = [
    { title: t('ocpp201.evse'), dataIndex: 'connectorId', key: 'connectorId' },
    {
      title: t('ocpp201.plugs'),
      key: 'plugs',
      render: (_: unknown, c) => {
        const plugs = formatPlugs(c.plugs, (s) => ocpp('connector', s));
        return plugs.length === 0 ? (
          '-'
        ) : (
          <Space size={[4, 4]} wrap data-testid="runtime-plugs">
            {plugs.map((p) => (
              <Tag key={p.key} color={statusColor(p.status)} title={p.status}>
                {p.text}
              </Tag>
            ))}
          </Space>
        );
      },
    },
    { ...statusCol, title: t('ocpp201.evseStatus') },
    ...otherCols,
  ];
  const valueCols: ColumnsType<RuntimeValue> = [
    {
      title: t('runtime.measurand'),
      dataIndex: 'name',
      key: 'name',
      // a charger's progress report by its plain name (the OCPP field on hover), a measurand by the catalogue's
      render: (v: string) => <span title={v}>{STATUS_VALUES[v] ? t(STATUS_VALUE_NAMES[v]) : seriesDisplayName(v, (m) => catalogue.label(m, false), t)}</span>,
    },
    { title: evse ? t('ocpp201.evse') : t('runtime.connector'), dataIndex: 'connectorId', key: 'connectorId' },
    {
      title: t('runtime.value'),
      key: 'value',
      render: (_: unknown, v) => (
        <span data-testid="runtime-value" title={STATUS_VALUES[v.name] ? v.value : undefined}>
          {STATUS_VALUES[v.name] ? ocpp(STATUS_VALUES[v.name], v.value) : formatMeterValue(v.value, storedUnit(v.name, v.unit, (m) => units[m]))}
        </span>
      ),
    },
    { title: t('runtime.sampledAt'), dataIndex: 'time', key: 'time', render: (v: number) => formatTime(v) },
  ];
  return (
    <Card title={t('device.section.runtime')} loading={q.isPending} style={{ marginBottom: 16 }} data-testid="section-runtime">
      {r && (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }}>
            <Descriptions.Item label={t('device.status')}>
              <span data-testid="runtime-status">
                <DeviceStatus status={r.status} />
              </span>
            </Descriptions.Item>
            <Descriptions.Item label={t('runtime.online')}>
              <Badge status={r.online ? 'success' : 'default'} text={r.online ? t('runtime.online.1') : t('runtime.online.0')} />
            </Descriptions.Item>
            <Descriptions.Item label={t('device.alarmStatus')}>{t(`runtime.alarm.${r.alarmStatus}`)}</Descriptions.Item>
            <Descriptions.Item label={t('runtime.vendor')}>{r.vendor || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('runtime.model')}>{r.model || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('device.softwareVersion')}>{r.softwareVersion || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('runtime.protocol')}>{r.protocol || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('runtime.remoteAddr')}>{r.remoteAddr || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('runtime.connectedAt')}>{formatTime(r.connectedAt)}</Descriptions.Item>
            <Descriptions.Item label={t('runtime.lastSeen')}>{formatTime(r.lastSeenAt)}</Descriptions.Item>
            <Descriptions.Item label={t('device.lastRefresh')}>{formatTime(r.lastRefreshAt)}</Descriptions.Item>
            <Descriptions.Item label={t('device.totalRuntime')}>{formatDuration(r.totalRuntime, t)}</Descriptions.Item>
            <Descriptions.Item label={t('device.unmaintainedDays')}>{`${r.unmaintainedDays} ${t('com_days')}`}</Descriptions.Item>
            <Descriptions.Item label={t('runtime.firmwareStatus')}>{ocpp('firmware', r.firmwareStatus)}</Descriptions.Item>
            <Descriptions.Item label={t('runtime.diagnosticsStatus')}>{ocpp('diagnostics', r.diagnosticsStatus)}</Descriptions.Item>
          </Descriptions>
          <Typography.Text strong>{evse ? t('ocpp201.evses') : t('runtime.connectors')}</Typography.Text>
          <Table<Connector>
            rowKey="connectorId"
            size="small"
            pagination={false}
            columns={evse ? evseCols : connectorCols}
            dataSource={r.connectors}
            data-testid="runtime-connectors"
            data-evse={evse || undefined}
          />
          <Typography.Text strong>{t('runtime.values')}</Typography.Text>
          <Table<RuntimeValue> rowKey={(v) => `${v.connectorId}/${v.name}`} size="small" pagination={false} columns={valueCols} dataSource={r.values} />
        </Space>
      )}
    </Card>
  );
}

export function useConfigValues(id: number) {
  return useQuery({ queryKey: fleetKeys.configValues(id), queryFn: () => getConfigValues(id), enabled: id > 0 });
}

/** Configuration values read from the device (GetConfiguration), filtered by the config read level. */
export function ConfigTable({
  id,
  extraColumns = [],
  rowSelection,
}: {
  id: number;
  extraColumns?: ColumnsType<ConfigValue>;
  rowSelection?: TableProps<ConfigValue>['rowSelection'];
}) {
  const { t } = useTranslation();
  const q = useConfigValues(id);
  const columns: ColumnsType<ConfigValue> = [
    { title: t('config.group'), dataIndex: 'group', key: 'group', render: (v: string) => displayItemName(v, t) || '-' },
    { title: t('config.key'), dataIndex: 'key', key: 'key', render: (v: string) => <span translate="no">{v}</span> },
    { title: t('config.name'), dataIndex: 'name', key: 'name', render: (v: string) => displayItemName(v, t) || '-' },
    { title: t('config.value'), dataIndex: 'value', key: 'value', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    { title: t('config.readonly'), dataIndex: 'readonly', key: 'readonly', render: (v: boolean) => <YesNo value={v} /> },
    { title: t('config.batch'), dataIndex: 'batch', key: 'batch', render: (v: boolean) => <YesNo value={v} /> },
    { title: t('com_update_time'), dataIndex: 'updatedAt', key: 'updatedAt', render: (v: number) => formatTime(v) },
    ...extraColumns,
  ];
  return (
    <Table<ConfigValue>
      rowKey="key"
      size="small"
      loading={q.isFetching}
      columns={columns}
      dataSource={q.data ?? []}
      rowSelection={rowSelection}
      pagination={{ pageSize: 20, hideOnSinglePage: true }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('config.empty')} /> }}
      data-testid="config-table"
    />
  );
}

const NO_FILTERS = {} as const;

/** Commands sent to a device, newest first, with their results. */
export function CommandHistory({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const list = useListState(NO_FILTERS, '', true);
  const controlName = useControlName();
  const columns: ColumnsType<Command> = [
    { title: t('com_create_time'), dataIndex: 'createdAt', key: 'createdAt', render: (v: number) => formatTime(v) },
    { title: t('command.operation'), dataIndex: 'controlType', key: 'controlType', render: (v: number) => controlName(v) },
    { title: t('command.user'), dataIndex: 'userName', key: 'userName' },
    {
      title: t('command.result'),
      dataIndex: 'result',
      key: 'result',
      render: (v: number, c) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          <ResultBadge result={v} />
          <FirmwareStepTag step={c.progress} at={c.progressAt} />
        </span>
      ),
    },
    { title: t('command.message'), dataIndex: 'message', key: 'message', render: (v: string) => v || '-' },
    { title: t('command.finishedAt'), dataIndex: 'finishedAt', key: 'finishedAt', render: (v: number) => formatTime(v) },
  ];
  return (
    <ListPage<Command>
      // an upgrade's steps arrive without a status change: re-read while one runs
      refetchInterval={(d) => (commandsRunning(d?.list ?? [], Date.now()) ? PROGRESS_POLL_MS : false)}
      list={list}
      queryKey={fleetKeys.commands(deviceId)}
      fetcher={(q) => listCommands({ ...q, deviceId })}
      columns={columns}
      testId="command-history"
    />
  );
}

/** Device logs: its protocol-log rows and its command history. */
export function LogsSection({ deviceId, sn, canProtocol }: { deviceId: number; sn: string; canProtocol: boolean }) {
  const { t } = useTranslation();
  return (
    <Card title={t('device.section.logs')} style={{ marginBottom: 16 }} data-testid="section-logs">
      <Tabs
        items={[
          ...(canProtocol ? [{ key: 'protocol', label: t('logs.protocol'), children: <ProtocolLogTable fixedSn={sn} /> }] : []),
          { key: 'commands', label: t('logs.commands'), children: <CommandHistory deviceId={deviceId} /> },
        ]}
      />
    </Card>
  );
}
