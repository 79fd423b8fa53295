/** Display pieces of the live-fleet screens: command results, event tables, level tags. */
import { DEVICE_READ_KEYS } from '../access';
import { Badge, Progress, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage from './ListPage';
import { useCan } from './access';
import { useListState } from '../hooks/useListState';
import type { CommandState } from '../hooks/useCommands';
import { EVENT_KINDS, EVENT_LEVELS, fleetKeys, listEvents, RESULT_COLORS, type DeviceEvent } from '../services/fleet';
import { batchProgress } from '../utils/fleet';
import { firmwareProgress, firmwareStepKey } from '../utils/firmwareSteps';
import { displayItemName, eventLabel, eventName, ocppName, type OcppKind } from '../utils/names';
import { formatTime } from '../utils/time';

/** A command result 1-5 as a badge (`data-result` for tests). */
export function ResultBadge({ result }: { result: number }) {
  const { t } = useTranslation();
  return (
    <span data-testid="command-result" data-result={result}>
      <Badge status={(RESULT_COLORS[result] ?? 'default') as 'default'} text={t(`command.result.${result}`)} />
    </span>
  );
}

/**
 * The step an UpdateFirmware reached (issue 30 item 9) as a tag beside its result: named in the
 * user's language, "n/5", the charger's own status and the time it came as the tooltip
 * (`data-step` for tests); nothing for other commands.
 */
export function FirmwareStepTag({ step, at }: { step?: string | null; at?: number }) {
  const { t } = useTranslation();
  const p = firmwareProgress(step);
  if (!p) return null;
  const color = p.state === 'failed' ? 'error' : p.state === 'done' ? 'success' : 'processing';
  const tip = `${p.step === 'Accepted' ? 'UpdateFirmware: Accepted' : `FirmwareStatusNotification: ${p.step}`}${at ? ` · ${formatTime(at)}` : ''}`;
  return (
    <Tooltip title={tip}>
      <Tag color={color} data-testid="command-step" data-step={p.step} style={{ marginInlineStart: 8 }}>
        {t(firmwareStepKey(p.step))} {p.state === 'running' && `${p.index}/${p.total}`}
      </Tag>
    </Tooltip>
  );
}

/**
 * The name of a control type (1-11): one name per operation everywhere. In English the model's
 * own name for it, if it has one (a standard name typed in Chinese, such as the zh-CN demo's,
 * shown in English); in other languages the type's name, since a model's control names are typed
 * once, in one language.
 */
export function useControlName() {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  return (type: number, name?: string | null) => (en && displayItemName(name, t)) || t(`control.type.${type}`);
}

/** The name of an OCPP value (error code, connector/firmware/diagnostics status) in the UI language. */
export function useOcppName() {
  const { t, i18n } = useTranslation();
  return (kind: OcppKind, code: string | null | undefined) => ocppName(kind, code, t, (k) => i18n.exists(k));
}

/** An event's name: OCPP error codes and statuses by their localised name (the code as a tooltip). */
export function useEventName() {
  const { t, i18n } = useTranslation();
  const exists = (k: string) => i18n.exists(k);
  return (code: string, name?: string | null) => eventName(code, name, t, exists, i18n.language);
}

/**
 * An event's name as every screen shows it (utils/names eventLabel): localised, with the vendor's
 * own code beside; linked to the alarm's document when there is one (its title as the tooltip).
 */
export function EventName({ code, name, vendorCode, docId, docName }: { code?: string | null; name?: string | null; vendorCode?: string | null; docId?: number; docName?: string }) {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const l = eventLabel(code, name, vendorCode, t, (k) => i18n.exists(k), i18n.language);
  return (
    <span data-testid="event-name" data-code={code ?? ''}>
      {docId && can('auth_docs_detail') ? (
        <Link to={`/manage/docs/detail/${docId}`} data-testid="event-doc-link" title={docName}>
          {l.name}
        </Link>
      ) : (
        l.name
      )}
      {l.code && (
        <Typography.Text type="secondary" translate="no">
          {` · ${l.code}`}
        </Typography.Text>
      )}
    </span>
  );
}

/** An event kind (0-3) as a tag: one name per kind everywhere (i18n `event.kind.N`). */
export function KindTag({ kind }: { kind: number }) {
  const { t } = useTranslation();
  return <Tag data-testid="event-kind" data-value={kind}>{t(`event.kind.${kind}`)}</Tag>;
}

/** Per-device results of the last operation, with a progress bar when there are several. */
export function CommandResults({ states, sending }: { states: CommandState[]; sending?: boolean }) {
  const { t } = useTranslation();
  const controlName = useControlName();
  if (!states.length && !sending) return null;
  const p = batchProgress(states.map((s) => (s.id ? s.result : -1)));
  const columns: ColumnsType<CommandState> = [
    { title: t('device.sn'), dataIndex: 'sn', key: 'sn' },
    { title: t('command.operation'), key: 'type', render: (_: unknown, s) => controlName(s.controlType) },
    {
      title: t('command.result'),
      key: 'result',
      render: (_: unknown, s) =>
        s.id ? (
          <ResultBadge result={s.result ?? 1} />
        ) : (
          <span data-testid="command-refused" data-code={s.code}>
            <Tag color="orange">{t('command.refused')}</Tag>
          </span>
        ),
    },
    { title: t('command.message'), key: 'message', render: (_: unknown, s) => <span data-testid="command-message">{s.message || '-'}</span> },
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="command-results">
      {states.length > 1 && (
        <Space>
          <Progress percent={p.percent} size="small" style={{ width: 240 }} data-testid="command-progress" />
          <Typography.Text type="secondary">{t('command.progress', { done: p.done, total: p.total })}</Typography.Text>
        </Space>
      )}
      <Table<CommandState> rowKey="deviceId" size="small" pagination={false} loading={sending} columns={columns} dataSource={states} />
    </Space>
  );
}

export function LevelTag({ level }: { level: number }) {
  const { t } = useTranslation();
  const color = ['gold', 'orange', 'red'][level] ?? 'default';
  return <Tag color={color}>{t(`event.level.${level}`)}</Tag>;
}

const EVENT_SPEC = { status: 'number', level: 'number' } as const;

/** Whether status changes arrive live (push stream) or by 30 s polling. */
export function LiveBadge({ up }: { up: boolean }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={up ? t('live.upHint') : t('live.downHint')}>
      <Badge status={up ? 'processing' : 'warning'} text={up ? t('live.up') : t('live.down')} data-testid="live-status" data-live={up ? '1' : '0'} />
    </Tooltip>
  );
}

export interface EventTableProps {
  deviceId?: number;
  siteId?: number;
  /** The kinds shown (0 offline, 1 alarm, 2 fault, 3 unavailable); default all. */
  kinds?: number[];
  /** Fixed state (0 open, 1 ended): the state filter is then not offered. */
  status?: number;
  /** Fixed level (0 OA, 1 MA, 2 CA): the level filter is then not offered. */
  level?: number;
  /** Only events started in [start, end) (unix ms). */
  start?: number;
  end?: number;
  testId?: string;
  /** An action per row: "Create ticket" from the event (docs/tickets.md, "Created from"). */
  onCreateTicket?: (e: DeviceEvent) => void;
}

/**
 * Alarms, faults and offline/unavailable events of a device, a site or the whole scope
 * (POST dev/alarm/list), newest first, with open/ended and level filters. `kinds` limits the
 * kinds shown; `status`, `level` and `start`/`end` fix those filters (the dashboards' lists).
 */
export function EventTable({ deviceId, siteId, kinds, status, level, start, end, testId, onCreateTicket }: EventTableProps) {
  const { t } = useTranslation();
  const can = useCan();
  const list = useListState(EVENT_SPEC, '', true);
  const columns: ColumnsType<DeviceEvent> = [
    { title: t('event.kind'), dataIndex: 'kind', key: 'kind', render: (v: number) => <KindTag kind={v} /> },
    { title: t('event.level'), dataIndex: 'level', key: 'level', render: (v: number, r) => (r.kind === 1 || r.kind === 2 ? <LevelTag level={v} /> : '-') },
    ...(deviceId
      ? []
      : [
          {
            title: t('device.sn'),
            dataIndex: 'sn',
            key: 'sn',
            render: (v: string, r: DeviceEvent) => (can(DEVICE_READ_KEYS) ? <Link to={`/manage/device/detail/${r.deviceId}`}>{v}</Link> : v),
          },
          { title: t('device.name'), dataIndex: 'deviceName', key: 'deviceName' },
        ]),
    { title: t('event.connector'), dataIndex: 'connectorId', key: 'connectorId' },
    {
      title: t('event.name'),
      key: 'name',
      // the alarm's document (docs/docs-wiki.md, "Alarm documents") is linked from its name
      render: (_: unknown, r) => <EventName code={r.code} name={r.name} vendorCode={r.vendorCode} docId={r.docId} docName={r.docName} />,
    },
    { title: t('event.info'), dataIndex: 'info', key: 'info', render: (v: string) => v || '-' },
    {
      title: t('event.status'),
      dataIndex: 'status',
      key: 'status',
      render: (v: number) => <Badge status={v === 0 ? 'error' : 'default'} text={t(`event.status.${v}`)} />,
    },
    { title: t('event.startedAt'), dataIndex: 'startedAt', key: 'startedAt', render: (v: number) => formatTime(v) },
    { title: t('event.endedAt'), dataIndex: 'endedAt', key: 'endedAt', render: (v: number) => formatTime(v) },
    ...(onCreateTicket
      ? [
          {
            title: t('com_actions'),
            key: 'ticket',
            render: (_: unknown, r: DeviceEvent) => (
              <a onClick={() => onCreateTicket(r)} data-testid="event-create-ticket">
                {t('ticket.fromAlarm')}
              </a>
            ),
          },
        ]
      : []),
  ];
  const fixed: Record<string, unknown> = { deviceId, siteId, kinds: kinds ?? EVENT_KINDS };
  if (status !== undefined) fixed.status = status;
  if (level !== undefined) fixed.level = level;
  if (start !== undefined) fixed.startTime = start;
  if (end !== undefined) fixed.endTime = end;
  const extra = [status, level, start, end].some((v) => v !== undefined) ? [`${status ?? ''}/${level ?? ''}/${start ?? ''}/${end ?? ''}`] : [];
  return (
    <ListPage<DeviceEvent>
      list={list}
      queryKey={fleetKeys.eventList(deviceId ?? (siteId ? `site-${siteId}` : 'all'), [kinds?.join(',') ?? 'all', ...extra])}
      fetcher={(q) => listEvents({ ...q, ...fixed })}
      columns={columns}
      testId={testId}
      filters={[
        ...(status !== undefined
          ? []
          : [{ name: 'status', label: t('event.status'), width: 120, options: [0, 1].map((v) => ({ value: v, label: t(`event.status.${v}`) })) }]),
        ...(level !== undefined || (kinds && !kinds.some((k) => k === 1 || k === 2))
          ? []
          : [{ name: 'level', label: t('event.level'), width: 160, options: EVENT_LEVELS.map((v) => ({ value: v, label: t(`event.level.${v}`) })) }]),
      ]}
    />
  );
}
