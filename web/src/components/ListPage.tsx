/**
 * The one list screen: search form (filters) + toolbar + table with pagination and sorting,
 * all kept in the URL through useListState. Sortable columns carry `sorter: true` and a `key`
 * equal to the server's sort field.
 */
import { useEffect, type ReactNode } from 'react';
import { Button, DatePicker, Form, Input, Select, Space, Table, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import type { ColumnsType, TableProps } from 'antd/es/table';
import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_OPTIONS } from '../utils/paging';
import { fromPicker, toPicker } from '../utils/time';
import { sortFrom, sortOrderOf, type ListController } from '../hooks/useListState';
import { emptyTextOf, ListError } from './TableState';
import { useColumnSettings } from './ColumnSettings';
import { bounded } from './columns';

export interface FilterField {
  name: string;
  label: string;
  /** A time range kept in two filters (unix ms): [start name, end name]; `name` is the form field only. */
  timeRange?: [string, string];
  options?: { value: string | number; label: ReactNode }[];
  width?: number;
  placeholder?: string;
}

export interface ListResult<Row> {
  total: number;
  list: Row[];
  totalMore?: boolean;
}

export interface ListPageProps<Row> {
  list: ListController;
  /** Prefix of the react-query key (a factory beside the service); invalidate it to refresh. */
  queryKey: QueryKey;
  fetcher(q: Record<string, unknown>): Promise<ListResult<Row>>;
  columns: ColumnsType<Row>;
  filters?: FilterField[];
  toolbar?: ReactNode;
  /** Above the table, given the current answer. */
  header?: (data: ListResult<Row> | undefined) => ReactNode;
  rowKey?: string;
  testId?: string;
  /** Where this list's column settings are kept per user (localStorage); absent: no settings. */
  columnsId?: string;
  rowSelection?: TableProps<Row>['rowSelection'];
  expandable?: TableProps<Row>['expandable'];
  enabled?: boolean;
  /** Refetch period (ms), e.g. the 30 s status polling while the push stream is down; or one decided by the current answer. */
  refetchInterval?: number | false | ((data: ListResult<Row> | undefined) => number | false);
}

/**
 * How long a list answer counts as fresh, so the route loader's prefetch is not asked again on
 * mount. 10 s: on a busy browser the page can mount several seconds after its prefetched rows
 * arrived (3 s was seen to refetch); changes still refetch at once (invalidation ignores it) and
 * live status comes by the stream.
 */
const PREFETCHED_FRESH_MS = 10_000;

/** Form values of the filters: time ranges as [Dayjs, Dayjs]. */
function toFormValues(filters: FilterField[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const f of filters) {
    if (!f.timeRange) continue;
    const [a, b] = f.timeRange.map((n) => values[n]);
    out[f.name] = typeof a === 'number' || typeof b === 'number' ? [typeof a === 'number' ? toPicker(a) : null, typeof b === 'number' ? toPicker(b) : null] : undefined;
  }
  return out;
}

/** Filter values of the form: time ranges split into their two unix-ms filters. */
export function fromFormValues(filters: FilterField[], values: Record<string, unknown>): Record<string, string | number | undefined> {
  const out: Record<string, unknown> = { ...values };
  for (const f of filters) {
    if (!f.timeRange) continue;
    const r = values[f.name] as [Dayjs | null, Dayjs | null] | null | undefined;
    delete out[f.name];
    out[f.timeRange[0]] = r?.[0] ? fromPicker(r[0]) : undefined;
    out[f.timeRange[1]] = r?.[1] ? fromPicker(r[1]) : undefined;
  }
  return out as Record<string, string | number | undefined>;
}

export default function ListPage<Row extends object>({
  list,
  queryKey,
  fetcher,
  columns,
  filters = [],
  toolbar,
  header,
  rowKey = 'id',
  testId,
  columnsId,
  rowSelection,
  expandable,
  enabled = true,
  refetchInterval,
}: ListPageProps<Row>) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(toFormValues(filters, list.filters));
  }, [form, list.filters]);

  const q = useQuery({
    queryKey: [...queryKey, list.query],
    queryFn: () => fetcher(list.query),
    placeholderData: keepPreviousData,
    // a page's route loader may have asked for this page a moment ago (lazyPage.tsx): use it
    staleTime: PREFETCHED_FRESH_MS,
    enabled,
    refetchInterval: typeof refetchInterval === 'function' ? (query) => refetchInterval(query.state.data) : refetchInterval,
  });

  const settings = useColumnSettings(columnsId, columns);
  const cols: ColumnsType<Row> = settings.columns.map((c) =>
    bounded(c.sorter && c.key ? { ...c, sortOrder: sortOrderOf(list.sort, String(c.key)), sortDirections: ['ascend', 'descend'] } : c),
  );

  return (
    // aria-busy while a fetch is in flight: the rows shown may still be the previous query's
    // (keepPreviousData), e.g. another folder's files a moment after the folder changed
    <div data-testid={testId} aria-busy={q.isFetching}>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {filters.length > 0 && (
          <Form form={form} name="search" layout="inline" onFinish={(v: Record<string, unknown>) => list.search(fromFormValues(filters, v))} style={{ rowGap: 8 }}>
            {filters.map((f) => (
              <Form.Item key={f.name} name={f.name} label={f.label}>
                {f.timeRange ? (
                  <DatePicker.RangePicker showTime allowEmpty={[true, true]} data-testid={`filter-${f.name}`} />
                ) : f.options ? (
                  <Select
                    allowClear
                    showSearch
                    optionFilterProp="label"
                    style={{ width: f.width ?? 180 }}
                    options={f.options as { value: string | number; label: string }[]}
                    placeholder={f.placeholder}
                    data-testid={`filter-${f.name}`}
                  />
                ) : (
                  <Input allowClear style={{ width: f.width ?? 180 }} placeholder={f.placeholder} data-testid={`filter-${f.name}`} />
                )}
              </Form.Item>
            ))}
            <Space>
              <Button type="primary" htmlType="submit" data-testid="list-search">
                {t('com_search')}
              </Button>
              <Button onClick={() => list.reset()}>{t('com_reset')}</Button>
            </Space>
          </Form>
        )}
        {(toolbar || settings.control) && (
          <Space wrap style={{ width: '100%', justifyContent: 'flex-end' }}>
            {toolbar}
            {settings.control}
          </Space>
        )}
        {header?.(q.data)}
        {/* a refresh that failed over rows already shown: say so above them */}
        {q.isError && q.data && <ListError error={q.error} onRetry={() => void q.refetch()} />}
        <Table<Row>
          rowKey={rowKey}
          size="middle"
          loading={q.isFetching}
          columns={cols}
          dataSource={q.data?.list ?? []}
          locale={{ emptyText: emptyTextOf(q) }}
          rowSelection={rowSelection}
          expandable={expandable}
          scroll={{ x: 'max-content' }}
          onChange={(_p, _f, sorter) => {
            const s = Array.isArray(sorter) ? sorter[0] : sorter;
            const next = sortFrom(s?.columnKey ? String(s.columnKey) : undefined, s?.order);
            if (next !== list.sort) list.setSort(next);
          }}
          pagination={{
            current: list.page,
            pageSize: list.pageSize,
            total: q.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
            showTotal: (total) =>
              q.data?.totalMore ? (
                <Typography.Text type="warning" data-testid="list-total-more">
                  {t('list.totalMore')}
                </Typography.Text>
              ) : (
                t('com_total', { total })
              ),
            onChange: (p, ps) => list.setPaging(p, ps),
          }}
        />
      </Space>
    </div>
  );
}

/** The primary "add" button of a list's toolbar. */
export function AddButton({ label, onClick, testId }: { label: ReactNode; onClick(): void; testId?: string }) {
  return (
    <Button type="primary" onClick={onClick} data-testid={testId}>
      {label}
    </Button>
  );
}
