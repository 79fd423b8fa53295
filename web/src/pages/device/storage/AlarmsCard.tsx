/**
 * The unit's open alarms and faults (POST dev/alarm/list: this device, kinds alarm and fault,
 * open), newest first, read again every 10 s: level (OA/MA/CA), kind, the BMS/PCS alarm by its
 * name in the UI language with its code beside (utils/essAlarms.ts through EventName), since when.
 * Every alarm of the device, ended ones too, is on the Device details tab.
 */
import type { HTMLAttributes } from 'react';
import { Card } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EventName, KindTag, LevelTag } from '../../../components/fleet';
import QueryTable from '../../../components/QueryTable';
import { ALARM_KINDS, fleetKeys, listEvents, type DeviceEvent } from '../../../services/fleet';
import { formatTime } from '../../../utils/time';

const ALARMS_MS = 10_000;
const OPEN = 0;
const MAX_ROWS = 100;

export default function AlarmsCard({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: fleetKeys.eventList(deviceId, ['storage-open']),
    queryFn: () => listEvents({ deviceId, kinds: ALARM_KINDS, status: OPEN, page: 1, pageSize: MAX_ROWS }),
    refetchInterval: ALARMS_MS,
  });
  const rows = q.data?.list ?? [];
  const columns: ColumnsType<DeviceEvent> = [
    { title: t('event.level'), dataIndex: 'level', key: 'level', width: 90, render: (v: number) => <LevelTag level={v} /> },
    { title: t('event.kind'), dataIndex: 'kind', key: 'kind', width: 90, render: (v: number) => <KindTag kind={v} /> },
    { title: t('event.name'), key: 'name', render: (_: unknown, r) => <EventName code={r.code} name={r.name} vendorCode={r.vendorCode} /> },
    { title: t('event.info'), dataIndex: 'info', key: 'info', render: (v: string) => v || '-' },
    { title: t('event.startedAt'), dataIndex: 'startedAt', key: 'startedAt', render: (v: number) => formatTime(v) },
  ];
  return (
    <Card
      title={t('ess.alarms')}
      style={{ marginBottom: 16 }}
      data-testid="storage-alarms"
      extra={q.data && <span data-testid="storage-alarm-count" data-value={q.data.total}>{t('ess.alarms.count', { count: q.data.total })}</span>}
    >
      <QueryTable<DeviceEvent>
        query={q}
        rowKey="id"
        size="small"
        pagination={false}
        columns={columns}
        dataSource={rows}
        empty={t('ess.alarms.none')}
        scroll={{ x: 'max-content' }}
        onRow={(r) => ({ 'data-testid': 'storage-alarm', 'data-code': r.code, 'data-level': r.level }) as HTMLAttributes<HTMLElement>}
      />
    </Card>
  );
}
