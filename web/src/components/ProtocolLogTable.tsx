import { useMemo } from 'react';
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import ListPage, { type FilterField } from './ListPage';
import { useListState } from '../hooks/useListState';
import { LOG_TYPES, listProtocolLogs, type ProtocolLog, fleetKeys } from '../services/fleet';
import { prettyFrame } from '../utils/fleet';
import { FrameSummary } from './OcppMessage';
import { formatTime, formatUTC } from '../utils/time';
import { withCursors } from '../utils/cursorPages';

const SPEC = { sn: 'string', type: 'number', startTime: 'number', endTime: 'number' } as const;
const EMBEDDED_SPEC = { type: 'number', startTime: 'number', endTime: 'number' } as const;
const TYPE_COLORS = ['green', 'default', 'blue', 'purple'];

/** The protocol log (frames in and out) as a list: every charger's (system/logs/protocol) or one charger's (the device page). */
export function ProtocolLogTable({ fixedSn }: { fixedSn?: string }) {
  const { t } = useTranslation();
  const list = useListState(fixedSn ? EMBEDDED_SPEC : SPEC, '', !!fixedSn);
  const fetcher = useMemo(() => withCursors((q) => listProtocolLogs(fixedSn ? { ...q, sn: fixedSn } : q)), [fixedSn]);
  const columns: ColumnsType<ProtocolLog> = [
    {
      title: t('logs.time'),
      dataIndex: 'time',
      key: 'time',
      // the user's zone like every other time; UTC (the frames' own times) on hover
      render: (v: number) => (
        <span data-testid="frame-time" title={formatUTC(v)} style={{ whiteSpace: 'nowrap' }}>
          {formatTime(v)}
        </span>
      ),
    },
    { title: t('device.sn'), dataIndex: 'sn', key: 'sn', sorter: !fixedSn },
    {
      title: t('protocol.type'),
      dataIndex: 'type',
      key: 'type',
      sorter: true,
      render: (v: number) => <Tag color={TYPE_COLORS[v]}>{t(`protocol.type.${v}`)}</Tag>,
    },
    { title: t('protocol.message'), key: 'summary', render: (_: unknown, r) => <FrameSummary data={r.data} /> },
    {
      title: t('logs.data'),
      dataIndex: 'data',
      key: 'data',
      render: (v: string) => (
        <Typography.Text ellipsis style={{ maxWidth: 420 }} code translate="no">
          {v || '-'}
        </Typography.Text>
      ),
    },
  ];
  const filters: FilterField[] = [
    ...(fixedSn ? [] : [{ name: 'sn', label: t('device.sn') }]),
    { name: 'type', label: t('protocol.type'), width: 140, options: LOG_TYPES.map((v) => ({ value: v, label: t(`protocol.type.${v}`) })) },
    { name: 'time', label: t('logs.time'), timeRange: ['startTime', 'endTime'] },
  ];
  return (
    <ListPage<ProtocolLog>
      list={list}
      queryKey={fleetKeys.protocolLogs(fixedSn ?? '')}
      fetcher={fetcher}
      columns={columns}
      filters={filters}
      testId="protocol-logs"
      expandable={{
        rowExpandable: (r) => !!r.data,
        expandedRowRender: (r) => (
          <pre style={{ margin: 0, maxHeight: 360, overflow: 'auto', fontSize: 12 }} data-testid="protocol-frame" translate="no">
            {prettyFrame(r.data)}
          </pre>
        ),
      }}
    />
  );
}
