/**
 * logs/error — the fleet-wide history of device errors: alarms and faults with their type,
 * level, status (Open/Ended), occurrence and created time (POST logs/error/list, docs/logs.md).
 * Filters site, device SN, error type, level, status and occurrence time; the order fields of
 * the error log (default = newest occurrence first, type, status, occurrence time, created
 * time) as column sorters; all in the URL. Export writes the filtered rows, in the same order,
 * to an xlsx file (bounded by the server).
 */
import { DEVICE_READ_KEYS } from '../../../access';
import { useState } from 'react';
import { App, Badge, Button, Tag } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage, { type FilterField } from '../../../components/ListPage';
import { useCan } from '../../../components/access';
import { EventName, LevelTag } from '../../../components/fleet';
import { useListState } from '../../../hooks/useListState';
import { useSiteOptions } from '../../../hooks/useOptions';
import { ERROR_KINDS, ERROR_STATUSES, errorLogKeys, exportErrorLogs, listErrorLogs, type ErrorLogRow } from '../../../services/logs';
import { formatTime } from '../../../utils/time';
import { errorLogBody, exportBody } from './logQuery';
import { registerTexts } from '../../../locales/domains';
import { logsTexts } from '../../../locales/domains/logs';

registerTexts(logsTexts);

const SPEC = { siteId: 'number', sn: 'string', kind: 'number', level: 'number', status: 'number', startTime: 'number', endTime: 'number' } as const;
const LEVELS = [0, 1, 2];
const KIND_COLORS: Record<number, string> = { 1: 'orange', 2: 'red' };

export default function ErrorLogs() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const can = useCan();
  const sites = useSiteOptions();
  const list = useListState(SPEC);
  const [exporting, setExporting] = useState(false);

  const columns: ColumnsType<ErrorLogRow> = [
    {
      title: t('errorLog.type'),
      dataIndex: 'kind',
      key: 'type',
      sorter: true,
      render: (v: number) => <Tag color={KIND_COLORS[v]}>{t(`event.kind.${v}`)}</Tag>,
    },
    { title: t('event.level'), dataIndex: 'level', key: 'level', render: (v: number) => <LevelTag level={v} /> },
    {
      title: t('device.sn'),
      dataIndex: 'sn',
      key: 'sn',
      render: (v: string, r) => (can(DEVICE_READ_KEYS) ? <Link to={`/manage/device/detail/${r.deviceId}`}>{v}</Link> : v),
    },
    { title: t('device.name'), dataIndex: 'deviceName', key: 'deviceName' },
    { title: t('event.connector'), dataIndex: 'connectorId', key: 'connectorId' },
    {
      title: t('errorLog.error'),
      key: 'name',
      render: (_: unknown, r) => <EventName code={r.code} name={r.name} vendorCode={r.vendorCode} />,
    },
    {
      title: t('event.status'),
      dataIndex: 'status',
      key: 'status',
      sorter: true,
      render: (v: number) => <Badge status={v === 0 ? 'error' : 'default'} text={t(`event.status.${v}`)} />,
    },
    { title: t('errorLog.occurredAt'), dataIndex: 'startedAt', key: 'time', sorter: true, render: (v: number) => formatTime(v) },
    { title: t('event.endedAt'), dataIndex: 'endedAt', key: 'endedAt', render: (v: number) => formatTime(v) },
    { title: t('errorLog.createdAt'), dataIndex: 'createdAt', key: 'created', sorter: true, render: (v: number) => formatTime(v) },
  ];
  const filters: FilterField[] = [
    { name: 'siteId', label: t('device.site'), options: sites },
    { name: 'sn', label: t('device.sn') },
    { name: 'kind', label: t('errorLog.type'), width: 120, options: ERROR_KINDS.map((v) => ({ value: v, label: t(`event.kind.${v}`) })) },
    { name: 'level', label: t('event.level'), width: 150, options: LEVELS.map((v) => ({ value: v, label: t(`event.level.${v}`) })) },
    { name: 'status', label: t('event.status'), width: 120, options: ERROR_STATUSES.map((v) => ({ value: v, label: t(`event.status.${v}`) })) },
    { name: 'time', label: t('errorLog.occurredAt'), timeRange: ['startTime', 'endTime'] },
  ];
  const doExport = async () => {
    setExporting(true);
    const done = message.loading(t('logs.exporting'), 0);
    try {
      await exportErrorLogs(exportBody(errorLogBody(list.query)));
    } catch {
      /* toasted */
    } finally {
      done();
      setExporting(false);
    }
  };
  return (
    <ListPage<ErrorLogRow>
      list={list}
      queryKey={errorLogKeys.list}
      fetcher={(q) => listErrorLogs(errorLogBody(q))}
      columns={columns}
      filters={filters}
      testId="error-logs"
      toolbar={
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()} data-testid="error-logs-export">
          {t('logs.export')}
        </Button>
      }
    />
  );
}
