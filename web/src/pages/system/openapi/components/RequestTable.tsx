/**
 * The request log of one application over the page's range, newest first: time (console time
 * format and zone), endpoint, HTTP status, code, latency, caller address and query; endpoint
 * and result filters in the URL; bounded pages (the server counts up to 10,000 rows).
 */
import { useMemo } from 'react';
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import ListPage from '../../../../components/ListPage';
import { useListState } from '../../../../hooks/useListState';
import { listRequests, OUTCOMES, openapiKeys, type RequestRow } from '../../../../services/openapiLog';
import { formatTime } from '../../../../utils/time';
import { formatMs, shortEndpoint } from '../shape';

const SPEC = { endpoint: 'string', outcome: 'string' } as const;

function statusColor(s: number): string {
  if (s >= 500) return 'red';
  if (s >= 400) return 'orange';
  return 'green';
}

export default function RequestTable({ id, start, end, endpoints }: { id: number; start: number; end: number; endpoints: string[] }) {
  const { t, i18n } = useTranslation();
  const list = useListState(SPEC);
  const fetcher = useMemo(() => (q: Record<string, unknown>) => listRequests({ ...q, id, startTime: start, endTime: end }), [id, start, end]);
  const columns: ColumnsType<RequestRow> = [
    { title: t('openapi.time'), dataIndex: 'time', key: 'time', render: (v: number) => formatTime(v) },
    {
      title: t('openapi.endpoint'),
      dataIndex: 'endpoint',
      key: 'endpoint',
      render: (v: string) => (
        <Typography.Text translate="no" style={{ whiteSpace: 'nowrap' }}>
          {v}
        </Typography.Text>
      ),
    },
    { title: t('openapi.httpStatus'), dataIndex: 'status', key: 'status', render: (v: number) => <Tag color={statusColor(v)}>{v}</Tag> },
    {
      title: t('openapi.code'),
      dataIndex: 'code',
      key: 'code',
      render: (v: number) => (
        <Typography.Text type={v === 0 ? undefined : 'danger'} data-testid="openapi-request-code">
          {v}
        </Typography.Text>
      ),
    },
    { title: t('openapi.latency'), dataIndex: 'latencyMs', key: 'latencyMs', align: 'right', render: (v: number) => t('openapi.ms', { value: formatMs(v, i18n.language) }) },
    { title: t('openapi.ip'), dataIndex: 'ip', key: 'ip', render: (v: string) => v || '-' },
    {
      title: t('openapi.query'),
      dataIndex: 'query',
      key: 'query',
      render: (v: string) =>
        v ? (
          <Typography.Text code ellipsis={{ tooltip: v }} style={{ maxWidth: 320 }} translate="no">
            {v}
          </Typography.Text>
        ) : (
          '-'
        ),
    },
  ];
  return (
    <ListPage<RequestRow>
      list={list}
      queryKey={openapiKeys.logOf(id, start, end)}
      fetcher={fetcher}
      columns={columns}
      testId="openapi-requests"
      filters={[
        { name: 'endpoint', label: t('openapi.endpoint'), width: 260, options: endpoints.map((e) => ({ value: e, label: shortEndpoint(e) })) },
        { name: 'outcome', label: t('openapi.outcome'), width: 140, options: OUTCOMES.map((o) => ({ value: o, label: t(`openapi.outcome.${o}`) })) },
      ]}
    />
  );
}
