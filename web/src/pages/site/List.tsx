/** site/list — sites with name/customer/status filters; enable/disable and delete. */
import { Button, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage from '../../components/ListPage';
import { useCan } from '../../components/access';
import { useListState } from '../../hooks/useListState';
import { useCustomerOptions } from '../../hooks/useOptions';
import { listSites, SITE_ENABLED, siteKeys } from '../../services/site';
import type { Site } from '../../services/typings';
import { formatClock } from '../../utils/time';
import ZonedTitle from '../../components/ZonedTitle';
import { useSiteActions } from './hooks/useSiteActions';
import { SiteStatus } from './components/SiteStatus';

const SPEC = { name: 'string', customerId: 'number', status: 'number' } as const;

export default function SiteList() {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const list = useListState(SPEC, '-createTime');
  const customers = useCustomerOptions();
  const actions = useSiteActions();
  const columns: ColumnsType<Site> = [
    {
      title: t('site.name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      render: (v: string, r) => (can('auth_site_detail') ? <Link to={`/manage/site/detail/${r.id}`}>{v}</Link> : v),
    },
    { title: t('site.code'), dataIndex: 'code', key: 'code' },
    { title: t('site.customer'), dataIndex: 'customerName', key: 'customerName', width: 150, ellipsis: true },
    { title: t('site.status'), dataIndex: 'status', key: 'status', render: (v: number) => <SiteStatus status={v} /> },
    { title: t('site.deviceCount'), dataIndex: 'deviceCount', key: 'deviceCount' },
    { title: t('site.contactPerson'), dataIndex: 'contactPerson', key: 'contactPerson', render: (v: string) => v || '-' },
    { title: t('site.buildDate'), dataIndex: 'buildDate', key: 'buildDate', render: (v: string) => v || '-' },
    { title: <ZonedTitle title={t('com_create_time')} />, dataIndex: 'createdAt', key: 'createTime', sorter: true, render: (v: number) => <span style={{ whiteSpace: 'nowrap' }}>{formatClock(v)}</span> },
    {
      title: t('com_actions'),
      key: 'actions',
      fixed: 'right',
      render: (_: unknown, r) =>
        can('auth_site_edit') && (
          <Space>
            <Link to={`/manage/site/update/${r.id}`}>{t('com_edit')}</Link>
            <a onClick={() => actions.toggle(r)}>{r.status === SITE_ENABLED ? t('com_disable') : t('com_enable')}</a>
            <a onClick={() => actions.remove(r)}>{t('com_delete')}</a>
          </Space>
        ),
    },
  ];
  return (
    <ListPage<Site>
      list={list}
      queryKey={siteKeys.list}
      fetcher={listSites}
      columns={columns}
      testId="site-list"
      filters={[
        { name: 'name', label: t('site.name') },
        { name: 'customerId', label: t('site.customer'), options: customers },
        { name: 'status', label: t('site.status'), width: 120, options: [0, 1].map((v) => ({ value: v, label: t(`site.status.${v}`) })) },
      ]}
      toolbar={
        can('auth_site_add') && (
          <Button type="primary" onClick={() => void navigate('/manage/site/add')} data-testid="site-add">
            {t('menu.site.add')}
          </Button>
        )
      }
    />
  );
}
