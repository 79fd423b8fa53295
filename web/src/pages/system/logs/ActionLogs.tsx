/**
 * logs/action/:type?/:id? — action log rows (POST /api/auth/sys/logs/action/list).
 * `type` = 'login' shows sign-in rows: logins (0) or logouts (1, with the reasons of docs/logs.md#action-log).
 * `id` is a user id: only that user's rows (docs/logs.md, "Action log"), e.g.
 * logs/action/login/12 or logs/action/operation/12.
 * The search form, sort and pagination live in the URL. Export writes the filtered rows, in
 * the same order, to an xlsx file (bounded by the server).
 */
import { useEffect, useState } from 'react';
import { Alert, App, Button, Form, Input, Segmented, Select, Space, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { listActionLogs, systemKeys } from '../../../services/system';
import { exportActionLogs } from '../../../services/logs';
import type { ActionLogPage } from '../../../services/typings';
import { locationName } from '../../../utils/names';
import { actionLabel } from '../../../utils/actionName';
import { formatTime } from '../../../utils/time';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_OPTIONS, parsePaging } from '../../../utils/paging';
import { exportBody, routeUserId } from './logQuery';
import { registerTexts } from '../../../locales/domains';
import { logsTexts } from '../../../locales/domains/logs';
import QueryTable from '../../../components/QueryTable';

registerTexts(logsTexts);

type Row = ActionLogPage['list'][number];
const TYPE_LOGIN = 0;
const TYPE_LOGOUT = 1;
const TYPES = [0, 1, 2];
const REASONS = [0, 1, 2, 3];
const SORTS = ['-time', 'time', 'type', '-type', 'user', '-user'];

export default function ActionLogs() {
  const { t, i18n } = useTranslation();
  const { type: view, id } = useParams();
  const { message } = App.useApp();
  const [exporting, setExporting] = useState(false);
  const loginView = view === 'login';
  const userId = routeUserId(id);
  const [params, setParams] = useSearchParams();
  const [form] = Form.useForm<{ userName?: string; action?: string; sort?: string }>();
  const { page, pageSize } = parsePaging(params);
  const userName = params.get('userName') ?? '';
  const action = params.get('action') ?? '';
  const sort = params.get('sort') ?? '';
  const typeParam = params.get('logType');
  const type = loginView
    ? typeParam === String(TYPE_LOGOUT)
      ? TYPE_LOGOUT
      : TYPE_LOGIN
    : typeParam !== null && TYPES.includes(Number(typeParam))
      ? Number(typeParam)
      : undefined;

  useEffect(() => {
    form.setFieldsValue({ userName, action, sort: sort || undefined });
  }, [form, userName, action, sort]);

  const query = useQuery({
    queryKey: systemKeys.actionLogs({ type, userName, action, sort, page, pageSize, userId }),
    queryFn: () => listActionLogs({ type, userId, userName: userName || undefined, action: action || undefined, sort, page, pageSize }),
    placeholderData: keepPreviousData,
  });

  const update = (patch: Record<string, string | number | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined || v === '') next.delete(k);
      else next.set(k, String(v));
    }
    setParams(next);
  };

  const doExport = async () => {
    setExporting(true);
    const done = message.loading(t('logs.exporting'), 0);
    try {
      await exportActionLogs(exportBody({ type, userId, userName: userName || undefined, action: action || undefined, sort, page, pageSize }));
    } catch {
      /* toasted */
    } finally {
      done();
      setExporting(false);
    }
  };

  const typeLabel = (v: number) => t(`logs.type.${v}`);
  const columns: ColumnsType<Row> = [
    { title: t('logs.user'), dataIndex: 'userName', key: 'userName' },
    loginView
      ? { title: t('logs.actionType'), dataIndex: 'type', key: 'type', render: (v: number) => typeLabel(v) }
      : {
          title: t('logs.actionType'),
          key: 'type',
          // a call's "METHOD path" by its name; a sign-in row's own "login"/"logout" is its type already
          render: (_: unknown, r: Row) =>
            r.action && r.action.includes(' ') ? (
              <>
                {typeLabel(r.type)} ·{' '}
                <span title={r.action} data-testid="action-name" data-action={r.action}>
                  {actionLabel(r, t, (k) => i18n.exists(k))}
                </span>
              </>
            ) : (
              typeLabel(r.type)
            ),
        },
    loginView
      ? {
          title: t('logs.reason'),
          dataIndex: 'reason',
          key: 'reason',
          render: (v: number, r: Row) => (r.type === TYPE_LOGOUT && REASONS.includes(v) ? t(`logs.reason.${v}`) : '-'),
        }
      : {
          title: t('logs.data'),
          dataIndex: 'data',
          key: 'data',
          render: (v: string) => (
            <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 360 }} translate="no">
              {v || '-'}
            </Typography.Text>
          ),
        },
    { title: t('logs.location'), dataIndex: 'location', key: 'location', render: (v: string) => locationName(v, t, (k) => i18n.exists(k)) },
    { title: t('logs.ip'), dataIndex: 'ip', key: 'ip', render: (v: string) => v || '-' },
    { title: t('logs.time'), dataIndex: 'createdAt', key: 'createdAt', render: (v: number) => formatTime(v) },
  ];

  return (
    <div data-testid="action-logs">
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      {userId !== undefined && (
        <Alert
          type="info"
          showIcon
          data-testid="action-logs-user-filter"
          message={t('logs.userFilter', { name: query.data?.list[0]?.userName ?? `#${userId}` })}
          action={<Link to={`/manage/system/logs/action/${view ?? 'operation'}`}>{t('logs.userFilter.clear')}</Link>}
        />
      )}
      {loginView && (
        <Segmented
          value={type}
          onChange={(v) => update({ logType: Number(v), page: undefined })}
          options={[
            { value: TYPE_LOGIN, label: t('logs.type.0') },
            { value: TYPE_LOGOUT, label: t('logs.type.1') },
          ]}
        />
      )}
      <Form
        form={form}
        layout="inline"
        onFinish={(v) => update({ userName: v.userName?.trim(), action: v.action?.trim(), sort: v.sort, page: undefined })}
      >
        <Form.Item name="userName" label={t('logs.user')}>
          <Input allowClear data-testid="logs-user" />
        </Form.Item>
        {!loginView && (
          <>
            <Form.Item label={t('logs.actionType')}>
              <Select
                allowClear
                style={{ width: 140 }}
                value={type}
                onChange={(v?: number) => update({ logType: v, page: undefined })}
                options={TYPES.map((v) => ({ value: v, label: typeLabel(v) }))}
              />
            </Form.Item>
            <Form.Item name="action" label={t('logs.action')}>
              <Input allowClear />
            </Form.Item>
          </>
        )}
        <Form.Item name="sort" label={t('logs.sort')}>
          <Select allowClear style={{ width: 160 }} placeholder={t('logs.sort.default')} options={SORTS.map((s) => ({ value: s, label: t(`logs.sort.${s}`) }))} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {t('com_search')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              setParams(new URLSearchParams());
            }}
          >
            {t('com_reset')}
          </Button>
        </Space>
      </Form>
      <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()} data-testid="action-logs-export">
          {t('logs.export')}
        </Button>
      </Space>
      <QueryTable<Row> query={query}
        rowKey="id"
        size="middle"
        loading={query.isFetching}
        columns={columns}
        dataSource={query.data?.list ?? []}
        pagination={{
          current: page,
          pageSize,
          total: query.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
          showTotal: (total) => t('com_total', { total }),
          onChange: (p, ps) => update({ page: p === 1 ? undefined : p, pageSize: ps === PAGE_SIZE_DEFAULT ? undefined : ps }),
        }}
      />
    </Space>
    </div>
  );
}
