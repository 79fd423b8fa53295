/**
 * The charging sessions table with its filters (customer, site, device SN, start time with quick
 * ranges, idTag, state, stop reason) and keyset pages read with "Load more" (docs/sessions.md):
 * the sessions screen and the device and site pages' tabs (a `fixed` device or site). A row
 * opens the session's drawer.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, DatePicker, Form, Input, Select, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCustomerOptions, useSiteOptions } from '../../../hooks/useOptions';
import { fromPicker, formatTime, toPicker } from '../../../utils/time';
import { formatKWh, formatSessionDuration, quickRanges, sessionDuration } from '../format';
import { listSessions, sessionKeys, STOP_REASONS, type SessionQuery, type SessionRow } from '../../../services/session';
import SessionDrawer from './SessionDrawer';
import QueryTable from '../../../components/QueryTable';

export type SessionFilters = Omit<SessionQuery, 'cursor' | 'pageSize'>;

export interface SessionTableProps {
  /** A device or site the table is limited to (its filter is then not shown). */
  fixed?: { deviceId?: number; siteId?: number };
  filters: SessionFilters;
  onSearch(f: SessionFilters): void;
  toolbar?: ReactNode;
  testId?: string;
  /** The fixed device speaks OCPP 2.0.1: its sessions' connector is the EVSE. */
  evse?: boolean;
}

const PAGE = 20;

export function StateTag({ row }: { row: Pick<SessionRow, 'stoppedAt'> }) {
  const { t } = useTranslation();
  return row.stoppedAt > 0 ? <Tag>{t('session.state.ended')}</Tag> : <Tag color="processing">{t('session.state.charging')}</Tag>;
}

interface FormValues {
  customerId?: number;
  siteId?: number;
  sn?: string;
  idTag?: string;
  state?: 'charging' | 'ended';
  reason?: string;
  time?: [Dayjs | null, Dayjs | null];
}

function toForm(f: SessionFilters): FormValues {
  return {
    customerId: f.customerId || undefined,
    siteId: f.siteId || undefined,
    sn: f.sn || undefined,
    idTag: f.idTag || undefined,
    reason: f.reason || undefined,
    state: f.open === undefined || f.open === null ? undefined : f.open ? 'charging' : 'ended',
    time: f.startTime || f.endTime ? [f.startTime ? toPicker(f.startTime) : null, f.endTime ? toPicker(f.endTime) : null] : undefined,
  };
}

function fromForm(v: FormValues): SessionFilters {
  const f: SessionFilters = {};
  if (v.customerId) f.customerId = v.customerId;
  if (v.siteId) f.siteId = v.siteId;
  if (v.sn?.trim()) f.sn = v.sn.trim();
  if (v.idTag?.trim()) f.idTag = v.idTag.trim();
  if (v.reason) f.reason = v.reason;
  if (v.state) f.open = v.state === 'charging';
  if (v.time?.[0]) f.startTime = fromPicker(v.time[0]);
  if (v.time?.[1]) f.endTime = fromPicker(v.time[1]);
  return f;
}

export default function SessionTable({ fixed, filters, onSearch, toolbar, testId = 'sessions', evse = false }: SessionTableProps) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const [open, setOpen] = useState<number>();
  const customerId = Form.useWatch('customerId', form);
  // the form follows the filters (the URL's, on back and forward)
  useEffect(() => form.setFieldsValue(toForm(filters)), [form, filters]);
  const customers = useCustomerOptions(!fixed);
  const sites = useSiteOptions(customerId, !fixed?.siteId && !fixed?.deviceId);
  const query = useMemo(() => ({ ...filters, ...fixed }), [filters, fixed]);
  const q = useInfiniteQuery({
    queryKey: sessionKeys.list(query),
    queryFn: ({ pageParam }) => listSessions({ ...query, pageSize: PAGE, cursor: pageParam || undefined }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next || undefined,
  });
  const rows = useMemo(() => q.data?.pages.flatMap((p) => p.list) ?? [], [q.data]);
  const ranges = quickRanges(new Date());
  const presets = (['today', '7d', '30d', 'month'] as const).map((k) => ({
    label: t(`session.range.${k}`),
    value: [toPicker(ranges[k][0]), toPicker(ranges[k][1])] as [Dayjs, Dayjs],
  }));
  const locale = i18n.language;

  const columns: ColumnsType<SessionRow> = [
    { title: t('session.id'), dataIndex: 'id', key: 'id', render: (v: number) => <a onClick={() => setOpen(v)}>{v}</a> },
    ...(fixed ? [] : [{ title: t('session.customer'), dataIndex: 'customerName', key: 'customerName' }]),
    ...(fixed?.siteId || fixed?.deviceId ? [] : [{ title: t('session.site'), dataIndex: 'siteName', key: 'siteName' }]),
    ...(fixed?.deviceId ? [] : [{ title: t('session.sn'), dataIndex: 'sn', key: 'sn' }]),
    { title: evse ? t('session.evseConnector') : t('session.connector'), dataIndex: 'connectorId', key: 'connectorId' },
    { title: t('session.idTag'), dataIndex: 'idTag', key: 'idTag', render: (v: string) => <span translate="no">{v || '-'}</span> },
    { title: t('session.state'), key: 'state', render: (_: unknown, r) => <StateTag row={r} /> },
    { title: t('session.startedAt'), dataIndex: 'startedAt', key: 'startedAt', render: (v: number) => formatTime(v) },
    { title: t('session.stoppedAt'), dataIndex: 'stoppedAt', key: 'stoppedAt', render: (v: number) => (v > 0 ? formatTime(v) : '-') },
    { title: t('session.duration'), key: 'duration', render: (_: unknown, r) => formatSessionDuration(sessionDuration(r)) },
    {
      title: t('session.energy'),
      dataIndex: 'energyWh',
      key: 'energy',
      align: 'right',
      render: (v: number, r) => (r.stoppedAt > 0 ? formatKWh(v, locale) : '-'),
    },
    { title: t('session.reason'), dataIndex: 'reason', key: 'reason', render: (v: string) => v || '-' },
  ];

  return (
    <div data-testid={testId}>
      <Form form={form} layout="inline" initialValues={toForm(filters)} onFinish={(v) => onSearch(fromForm(v))} style={{ marginBottom: 16, rowGap: 8 }}>
        {!fixed && (
          <Form.Item name="customerId" label={t('session.customer')}>
            <Select allowClear options={customers} style={{ width: 160 }} onChange={() => form.setFieldValue('siteId', undefined)} />
          </Form.Item>
        )}
        {!fixed?.siteId && !fixed?.deviceId && (
          <Form.Item name="siteId" label={t('session.site')}>
            <Select allowClear options={sites} style={{ width: 160 }} />
          </Form.Item>
        )}
        {!fixed?.deviceId && (
          <Form.Item name="sn" label={t('session.sn')}>
            <Input allowClear style={{ width: 150 }} data-testid={`${testId}-sn`} />
          </Form.Item>
        )}
        <Form.Item name="time" label={t('session.time')}>
          <DatePicker.RangePicker showTime presets={presets} allowEmpty={[true, true]} />
        </Form.Item>
        <Form.Item name="idTag" label={t('session.idTag')}>
          <Input allowClear style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="state" label={t('session.state')}>
          <Select
            allowClear
            style={{ width: 110 }}
            options={[
              { value: 'charging', label: t('session.state.charging') },
              { value: 'ended', label: t('session.state.ended') },
            ]}
          />
        </Form.Item>
        <Form.Item name="reason" label={t('session.reason')}>
          <Select allowClear style={{ width: 150 }} options={STOP_REASONS.map((r) => ({ value: r, label: r }))} />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" data-testid={`${testId}-search`}>
              {t('com_search')}
            </Button>
            <Button
              onClick={() => {
                form.setFieldsValue(toForm({}));
                onSearch({});
              }}
            >
              {t('com_reset')}
            </Button>
            {toolbar}
          </Space>
        </Form.Item>
      </Form>
      <QueryTable<SessionRow> query={q}
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        onRow={(r) => ({ onDoubleClick: () => setOpen(r.id) })}
      />
      <Space style={{ marginTop: 12 }}>
        <Typography.Text type="secondary">{t('session.shown', { count: rows.length })}</Typography.Text>
        {q.hasNextPage ? (
          <Button onClick={() => void q.fetchNextPage()} loading={q.isFetchingNextPage} data-testid={`${testId}-more`}>
            {t('session.loadMore')}
          </Button>
        ) : (
          rows.length > 0 && <Typography.Text type="secondary">{t('session.end')}</Typography.Text>
        )}
      </Space>
      {open !== undefined && <SessionDrawer id={open} onClose={() => setOpen(undefined)} />}
    </div>
  );
}
