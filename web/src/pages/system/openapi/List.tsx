/**
 * system/openapi/list — the applications in scope with their OpenAPI calls (docs/openapi-console.md):
 * status, bound user, customer, appId, calls today and in 7 days (days of the console's time
 * zone), errors in 7 days, last call;
 * name and status filters. The name opens the application's request log (logDetail/{id}/{appId}).
 */
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage from '../../../components/ListPage';
import { useListState } from '../../../hooks/useListState';
import { registerTexts } from '../../../locales/domains';
import { openapiTexts } from '../../../locales/domains/openapi';
import { listOpenapiApps, openapiKeys, type OpenapiApp } from '../../../services/openapiLog';
import { formatCount } from '../../../utils/format';
import { formatTime, getTimeZone } from '../../../utils/time';

registerTexts(openapiTexts);

const SPEC = { name: 'string', status: 'number' } as const;

const logDetailPath = (a: { id: number; appId: string }) => `/manage/system/openapi/logDetail/${a.id}/${encodeURIComponent(a.appId)}`;

export default function OpenapiList() {
  const { t, i18n } = useTranslation();
  const list = useListState(SPEC);
  const count = (v: number) => formatCount(v, i18n.language);
  const columns: ColumnsType<OpenapiApp> = [
    {
      title: t('openapi.name'),
      dataIndex: 'name',
      key: 'name',
      render: (v: string, r) => (
        <Link to={logDetailPath(r)} data-testid={`openapi-app-${r.id}`}>
          {v}
        </Link>
      ),
    },
    {
      title: t('openapi.status'),
      dataIndex: 'status',
      key: 'status',
      render: (v: number) => <Tag color={v === 1 ? 'green' : 'default'}>{t(`openapi.status.${v === 1 ? 1 : 0}`)}</Tag>,
    },
    { title: t('openapi.user'), dataIndex: 'userName', key: 'userName', render: (v: string) => v || '-' },
    { title: t('openapi.customer'), dataIndex: 'customerName', key: 'customerName', render: (v: string) => v || '-' },
    {
      title: t('openapi.appId'),
      dataIndex: 'appId',
      key: 'appId',
      render: (v: string) => (
        <Typography.Text translate="no" style={{ fontFamily: 'monospace', fontSize: 12 }}>
          {v}
        </Typography.Text>
      ),
    },
    // figures in narrow columns: their titles wrap, so the row fits beside the menu
    { title: t('openapi.callsToday'), dataIndex: 'callsToday', key: 'callsToday', align: 'right', width: 90, render: count },
    { title: t('openapi.calls7d'), dataIndex: 'calls7d', key: 'calls7d', align: 'right', width: 90, render: count },
    {
      title: t('openapi.errors7d'),
      dataIndex: 'errors7d',
      key: 'errors7d',
      align: 'right',
      width: 90,
      render: (v: number) => <Typography.Text type={v > 0 ? 'danger' : undefined}>{count(v)}</Typography.Text>,
    },
    { title: t('openapi.lastCall'), dataIndex: 'lastCallAt', key: 'lastCallAt', render: (v: number) => (v > 0 ? formatTime(v) : t('openapi.never')) },
  ];
  return (
    <div>
      <Typography.Paragraph type="secondary">{t('openapi.listHint', { tz: getTimeZone() })}</Typography.Paragraph>
      <ListPage<OpenapiApp>
        list={list}
        queryKey={openapiKeys.apps}
        fetcher={listOpenapiApps}
        columns={columns}
        testId="openapi-apps"
        filters={[
          { name: 'name', label: t('openapi.name') },
          { name: 'status', label: t('openapi.status'), width: 120, options: [1, 0].map((v) => ({ value: v, label: t(`openapi.status.${v}`) })) },
        ]}
      />
    </div>
  );
}
