/**
 * Remote Operations tab: the model's control items the user's param level allows (all the
 * standard ones when the model lists none; VPN start and stop are the remote link panel's, above
 * this), each behind a confirm dialog; the command
 * followed live until it is no longer waiting. Connectors (enable/disable), firmware (upload,
 * then UpdateFirmware), log upload (GetDiagnostics) with the diagnostics files, parameters
 * (GetConfiguration, ChangeConfiguration of one or many values). The charging operations
 * (control types 12-18: start, stop, unlock, clear cache, reserve, cancel, DataTransfer) and the
 * reservations are ops/.
 */
import { useState } from 'react';
import { App, Button, Card, Empty, Progress, Select, Space, Table, Tag, Typography, Upload } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CommandResults, useControlName, useOcppName } from '../../components/fleet';
import { messageOptions } from '../../components/OcppMessage';
import { useCommands } from '../../hooks/useCommands';
import { useControlLevels } from '../../hooks/useControlLevels';
import { listItems, modelKeys } from '../../services/deviceModel';
import { addFirmware, CTL, fileUrl, listDiagnostics, listFirmware, TRIGGER_MESSAGES, uploadBytes, type ConfigValue, type ControlParams, type FleetFile, fleetKeys, type GetLogType } from '../../services/fleet';
import type { Device } from '../../services/typings';
import { configChanges, uploadArrived, UPLOAD_POLL_MS, usableControls, watchUploads, type UploadWatch } from '../../utils/fleet';
import { formatTime } from '../../utils/time';
import { ConfigTable, useConfigValues, useRuntime } from './sections';
import ConfigEditModal from './ConfigEditModal';
import ConnectorActions from './ops/ConnectorActions';
import DataTransferCard from './ops/DataTransferCard';
import ReservationList from './ops/ReservationList';
import ParamImportButton from './ops/ParamImportButton';
import { OPS_KEYS } from '../../services/ops';
import { useCan } from '../../components/access';
import SelectionButton from '../../components/SelectionButton';
import QueryTable from '../../components/QueryTable';
import FirmwareSigningFields, { type Signing } from './signed/FirmwareSigningFields';
import GetLogControl from './signed/GetLogControl';
import { signingError, signingOf } from './signed/signing';

/**
 * Operations run from the operations card (the others have their own cards; VPN start and stop
 * are the remote link panel's Open link and Close link: remote/RemoteLinkPanel.tsx).
 */
const SIMPLE = [CTL.softReset, CTL.hardReset, CTL.availability, CTL.triggerMessage];


function formatSize(n: number): string {
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}


/** When the config values are read again after a configuration command (ms after its result). */
const CONFIG_REREAD_MS = [0, 1500, 5000];
export default function Remote({ device, streamUp }: { device: Device; streamUp: boolean }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const levelOf = useControlLevels();
  const can = useCan();
  const controlName = useControlName();
  const ocpp = useOcppName();
  const cmds = useCommands();
  const items = useQuery({ queryKey: modelKeys.items(device.modelId, 'control'), queryFn: () => listItems(device.modelId, 'control') });
  const runtime = useRuntime(device.id, streamUp);
  const config = useConfigValues(device.id);
  const [trigger, setTrigger] = useState('MeterValues');
  const [selected, setSelected] = useState<string[]>([]);
  const [editing, setEditing] = useState<ConfigValue[] | null>(null);
  const [proposed, setProposed] = useState<Record<string, string> | undefined>(undefined);
  const edit = (items: ConfigValue[] | null, values?: Record<string, string>) => {
    setProposed(values);
    setEditing(items);
  };
  // an imported file: its items, the current values shown beside the file's
  const editImported = (items: ConfigValue[]) => {
    const keys = new Set(items.map((i) => i.key));
    edit((config.data ?? []).filter((c) => keys.has(c.key)), Object.fromEntries(items.map((i) => [i.key, i.value])));
  };

  if (items.isPending) return <Card loading />;
  const controls = usableControls(items.data ?? [], levelOf).filter((c) => c.type !== CTL.vpnStart && c.type !== CTL.vpnStop);
  const offered = new Map(controls.map((c) => [c.type, c]));
  const nameOf = (type: number) => controlName(type, offered.get(type)?.name);
  const target = [{ id: device.id, sn: device.sn }];

  /** Sends, and when the command ends runs `after` (e.g. refresh the config values). */
  const send = (type: number, params: ControlParams, after?: () => void) => {
    void cmds.send(target, type, params).then((r) => {
      if (r?.some((s) => s.result === 2)) after?.();
    });
  };
  /** Confirms, then sends (see send). */
  const run = (type: number, params: ControlParams = {}, o: { title?: string; after?: () => void; danger?: boolean } = {}) =>
    modal.confirm({
      title: o.title ?? t('command.confirm', { op: nameOf(type), sn: device.sn }),
      okText: t('com_ok'),
      cancelText: t('com_cancel'),
      okButtonProps: { danger: o.danger, 'data-testid': 'confirm-ok' } as { danger?: boolean },
      onOk: () => send(type, params, o.after),
    });

  // The values a configuration command brings are written by the batched ingest, which may
  // land just after the command's result: read them now and again shortly after.
  const refreshConfig = () => {
    for (const ms of CONFIG_REREAD_MS) window.setTimeout(() => void qc.invalidateQueries({ queryKey: fleetKeys.configValues(device.id) }), ms);
  };
  const refreshRuntime = () => void qc.invalidateQueries({ queryKey: fleetKeys.runtime(device.id) });

  if (controls.length === 0)
    return <Empty description={t('remote.none')} data-testid="remote-none" />;

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="remote-operations">
      <Card title={t('remote.operations')} size="small">
        <Space wrap>
          {SIMPLE.filter((type) => offered.has(type)).map((type) =>
            type === CTL.availability ? (
              <Space key={type}>
                <Button danger onClick={() => run(type, { enable: false }, { danger: true, after: refreshRuntime })} data-testid={`control-${type}`}>
                  {nameOf(type)}
                </Button>
                <Button
                  onClick={() => run(type, { enable: true }, { title: t('command.confirm', { op: t('remote.enableDevice'), sn: device.sn }), after: refreshRuntime })}
                  data-testid={`control-${type}-enable`}
                >
                  {t('remote.enableDevice')}
                </Button>
              </Space>
            ) : type === CTL.triggerMessage ? (
              <Space.Compact key={type}>
                <Select style={{ width: 340 }} value={trigger} onChange={setTrigger} options={messageOptions(TRIGGER_MESSAGES)} />
                <Button onClick={() => run(type, { message: trigger }, { after: refreshRuntime })} data-testid={`control-${type}`}>
                  {nameOf(type)}
                </Button>
              </Space.Compact>
            ) : (
              <Button key={type} danger={type === CTL.hardReset} onClick={() => run(type, {}, { danger: type === CTL.hardReset })} data-testid={`control-${type}`}>
                {nameOf(type)}
              </Button>
            ),
          )}
        </Space>
        <div style={{ marginTop: 12 }}>
          <CommandResults states={cmds.states} sending={cmds.sending} />
        </div>
      </Card>

      <ConnectorActions device={device} offered={offered} />
      {offered.has(CTL.dataTransfer) && <DataTransferCard device={device} />}
      {offered.has(CTL.reserveNow) && can(OPS_KEYS.reserve) && <ReservationList deviceId={device.id} />}

      {offered.has(CTL.connectorAvailability) && (
        <Card title={t('remote.connectors')} size="small" data-testid="remote-connectors">
          <QueryTable
            query={runtime}
            rowKey="connectorId"
            size="small"
            pagination={false}
            dataSource={(runtime.data?.connectors ?? []).filter((c) => c.connectorId > 0)}
            columns={[
              { title: t('runtime.connector'), dataIndex: 'connectorId', key: 'connectorId' },
              { title: t('runtime.connectorStatus'), dataIndex: 'status', key: 'status', render: (v: string) => <Tag title={v}>{ocpp('connector', v)}</Tag> },
              {
                title: t('com_actions'),
                key: 'actions',
                render: (_: unknown, c) => (
                  <Space>
                    <a
                      onClick={() =>
                        run(CTL.connectorAvailability, { connectorId: c.connectorId, enable: false }, {
                          title: t('remote.confirmConnector', { op: t('com_disable'), id: c.connectorId, sn: device.sn }),
                          danger: true,
                          after: refreshRuntime,
                        })
                      }
                    >
                      {t('com_disable')}
                    </a>
                    <a
                      onClick={() =>
                        run(CTL.connectorAvailability, { connectorId: c.connectorId, enable: true }, {
                          title: t('remote.confirmConnector', { op: t('com_enable'), id: c.connectorId, sn: device.sn }),
                          after: refreshRuntime,
                        })
                      }
                    >
                      {t('com_enable')}
                    </a>
                  </Space>
                ),
              },
            ]}
          />
        </Card>
      )}

      {offered.has(CTL.updateFirmware) && <FirmwareCard name={nameOf(CTL.updateFirmware)} onStart={(firmwareId) => run(CTL.updateFirmware, { firmwareId }, { after: refreshRuntime })} />}

      {(offered.has(CTL.getDiagnostics) || offered.has(CTL.getLog)) && (
        <DiagnosticsCard
          deviceId={device.id}
          name={offered.has(CTL.getDiagnostics) ? nameOf(CTL.getDiagnostics) : null}
          onStart={(after) => run(CTL.getDiagnostics, {}, { after })}
          getLog={offered.has(CTL.getLog) ? { name: nameOf(CTL.getLog), onStart: (logType, after) => run(CTL.getLog, { logType }, { after }) } : undefined}
        />
      )}

      {(offered.has(CTL.getConfiguration) || offered.has(CTL.changeConfiguration)) && (
        <Card
          title={t('remote.parameters')}
          size="small"
          data-testid="remote-parameters"
          extra={
            <Space>
              {offered.has(CTL.getConfiguration) && (
                <Button onClick={() => run(CTL.getConfiguration, {}, { after: refreshConfig })} data-testid={`control-${CTL.getConfiguration}`}>
                  {nameOf(CTL.getConfiguration)}
                </Button>
              )}
              {offered.has(CTL.changeConfiguration) && !!config.data?.length && (
                <ParamImportButton deviceId={device.id} onRead={editImported} />
              )}
              {offered.has(CTL.changeConfiguration) && (
                <SelectionButton
                  type="primary"
                  count={selected.length}
                  onClick={() => edit((config.data ?? []).filter((c) => selected.includes(c.key)))}
                  data-testid="config-set-selected"
                >
                  {t('config.setSelected', { count: selected.length })}
                </SelectionButton>
              )}
            </Space>
          }
        >
          <ConfigTable
            id={device.id}
            rowSelection={
              offered.has(CTL.changeConfiguration)
                ? {
                    selectedRowKeys: selected,
                    onChange: (keys) => setSelected(keys as string[]),
                    getCheckboxProps: (r) => ({ disabled: !r.writable }),
                  }
                : undefined
            }
            extraColumns={
              offered.has(CTL.changeConfiguration)
                ? [
                    {
                      title: t('com_actions'),
                      key: 'actions',
                      render: (_: unknown, r: ConfigValue) =>
                        r.writable ? (
                          <a onClick={() => edit([r])} data-testid={`config-edit-${r.key}`}>
                            {t('com_edit')}
                          </a>
                        ) : (
                          '-'
                        ),
                    },
                  ]
                : []
            }
          />
          {!config.data?.length && offered.has(CTL.changeConfiguration) && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
              {t('config.readFirst')}
            </Typography.Paragraph>
          )}
        </Card>
      )}

      <ConfigEditModal
        modelId={device.modelId}
        items={editing}
        proposed={proposed}
        onClose={() => edit(null)}
        onSubmit={(edits) => {
          const current = Object.fromEntries((config.data ?? []).map((c) => [c.key, c.value]));
          const { items: changes, same } = configChanges(edits, current);
          if (same.length) {
            void message.error(t('config.sameValue', { keys: same.join(', ') }));
            return false;
          }
          if (!changes.length) return false;
          edit(null);
          setSelected([]);
          // the edit dialog, which shows each current value beside the new one, is the one
          // confirmation (issue 30 item 20: not a second "are you sure" for one value)
          send(CTL.changeConfiguration, { items: changes }, refreshConfig);
          return true;
        }}
      />
    </Space>
  );
}

function FirmwareCard({ name, onStart }: { name: string; onStart(firmwareId: number): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [firmwareId, setFirmwareId] = useState<number>();
  const [signing, setSigning] = useState<Signing>({ certificate: '', signature: '' });
  const list = useQuery({ queryKey: fleetKeys.firmware, queryFn: () => listFirmware({ page: 1, pageSize: 100 }) });
  const upload = async () => {
    if (!file) return;
    const bad = signingError(signing.certificate, signing.signature);
    if (bad) {
      void message.error(t(bad));
      return;
    }
    setProgress(0);
    try {
      const f = await addFirmware(file.name, signingOf(signing.certificate, signing.signature));
      await uploadBytes(f.uploadUrl, file, setProgress);
      void message.success(t('firmware.uploaded', { name: file.name }));
      await qc.invalidateQueries({ queryKey: fleetKeys.firmware });
      setFirmwareId(f.id);
      setFile(null);
      setSigning({ certificate: '', signature: '' });
    } catch (e) {
      void message.error(t('firmware.uploadFailed', { reason: e instanceof Error ? e.message : String(e) }));
    } finally {
      setProgress(null);
    }
  };
  const files = (list.data?.list ?? []).filter((f) => f.complete);
  return (
    <Card title={t('remote.firmware')} size="small" data-testid="remote-firmware">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <Upload
            maxCount={1}
            showUploadList={!!file}
            beforeUpload={(f) => {
              setFile(f);
              return false;
            }}
            onRemove={() => setFile(null)}
          >
            <Button icon={<UploadOutlined />}>{t('firmware.choose')}</Button>
          </Upload>
          <Button disabled={!file} loading={progress !== null} onClick={() => void upload()} data-testid="firmware-upload">
            {t('firmware.upload')}
          </Button>
          {progress !== null && <Progress percent={progress} size="small" style={{ width: 200 }} data-testid="firmware-progress" />}
        </Space>
        <FirmwareSigningFields value={signing} onChange={setSigning} />
        <Space wrap>
          <Select
            style={{ minWidth: 320 }}
            placeholder={t('firmware.pick')}
            value={firmwareId}
            onChange={setFirmwareId}
            loading={list.isFetching}
            options={files.map((f) => ({
              value: f.id,
              label: (
                <span data-signed={f.signed ? 'true' : undefined}>
                  {`${f.name} · ${formatSize(f.size)} · ${formatTime(f.createdAt)}`}
                  {f.signed && <Tag color="green" style={{ marginInlineStart: 8 }} data-testid="firmware-signed">{t('signed.tag')}</Tag>}
                </span>
              ),
            }))}
            data-testid="firmware-select"
          />
          <Button type="primary" disabled={!firmwareId} onClick={() => firmwareId && onStart(firmwareId)} data-testid={`control-${CTL.updateFirmware}`}>
            {name}
          </Button>
        </Space>
      </Space>
    </Card>
  );
}

/**
 * The diagnostics files; after an accepted GetDiagnostics or GetLog (a diagnostics or security
 * log, signed/GetLogControl.tsx) the list is re-read until the charger's upload completes.
 */
function DiagnosticsCard({ deviceId, name, onStart, getLog }: {
  deviceId: number;
  name: string | null;
  onStart(after: () => void): void;
  getLog?: { name: string; onStart(logType: GetLogType, after: () => void): void };
}) {
  const { t } = useTranslation();
  const [watch, setWatch] = useState<UploadWatch | null>(null);
  const list = useQuery({
    queryKey: fleetKeys.diagnostics(deviceId),
    queryFn: () => listDiagnostics({ deviceId, page: 1, pageSize: 50 }),
    refetchInterval: (q) => (watch && !uploadArrived(watch, q.state.data?.list ?? [], Date.now()) ? UPLOAD_POLL_MS : false),
  });
  const startWatch = () => setWatch(watchUploads(list.data?.list ?? [], Date.now()));
  const open = async (f: FleetFile) => {
    try {
      const { url } = await fileUrl(f.id);
      window.open(url, '_blank', 'noopener');
    } catch {
      /* toasted */
    }
  };
  const columns: ColumnsType<FleetFile> = [
    { title: t('file.name'), dataIndex: 'name', key: 'name' },
    { title: t('file.size'), dataIndex: 'size', key: 'size', render: (v: number) => formatSize(v) },
    { title: t('com_create_time'), dataIndex: 'createdAt', key: 'createdAt', render: (v: number) => formatTime(v) },
    {
      title: t('com_actions'),
      key: 'actions',
      render: (_: unknown, f) => (f.complete ? <a onClick={() => void open(f)}>{t('file.download')}</a> : <Tag>{t('file.incomplete')}</Tag>),
    },
  ];
  return (
    <Card
      title={t('remote.diagnostics')}
      size="small"
      data-testid="remote-diagnostics"
      extra={
        <Space wrap>
          {getLog && <GetLogControl name={getLog.name} onStart={(logType) => getLog.onStart(logType, startWatch)} />}
          {name !== null && (
            <Button onClick={() => onStart(startWatch)} data-testid={`control-${CTL.getDiagnostics}`}>
              {name}
            </Button>
          )}
        </Space>
      }
    >
      <Table<FleetFile> rowKey="id" size="small" loading={list.isFetching} columns={columns} dataSource={list.data?.list ?? []} pagination={false} />
    </Card>
  );
}
