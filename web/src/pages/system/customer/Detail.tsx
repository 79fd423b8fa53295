/** system/customer/detail/:id — a customer with its counts, sites and users. */
import { Button, Card, Descriptions, Tabs } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader, NotFoundResult } from '../../../components/PageHeader';
import FormDrawer, { useDrawer } from '../../../components/FormDrawer';
import { YesNo } from '../../../components/Flag';
import ObjectImage from '../../../components/ObjectImage';
import { useCan } from '../../../components/access';
import { getCustomer, type CustomerInput, customerKeys } from '../../../services/customer';
import { listSites, siteKeys } from '../../../services/site';
import { listUsers, userKeys } from '../../../services/user';
import type { Customer, Site, User } from '../../../services/typings';
import { formatTime } from '../../../utils/time';
import { CustomerFields } from './components/CustomerFields';
import { useSaveCustomer } from './hooks/useSaveCustomer';
import QueryTable from '../../../components/QueryTable';

export default function CustomerDetail() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const can = useCan();
  const q = useQuery({ queryKey: customerKeys.detail(id), queryFn: () => getCustomer(id), enabled: id > 0, retry: false });
  const sites = useQuery({
    queryKey: siteKeys.ofCustomer(id),
    queryFn: () => listSites({ customerId: id, page: 1, pageSize: 100 }),
    enabled: id > 0 && can('auth_site_list'),
  });
  const drawer = useDrawer<Customer>();
  const save = useSaveCustomer();
  if (q.isError || !(id > 0)) return <NotFoundResult />;
  const c = q.data;
  const siteCols: ColumnsType<Site> = [
    { title: t('site.name'), dataIndex: 'name', key: 'name', render: (v: string, r) => <Link to={`/manage/site/detail/${r.id}`}>{v}</Link> },
    { title: t('site.code'), dataIndex: 'code', key: 'code' },
    { title: t('site.deviceCount'), dataIndex: 'deviceCount', key: 'deviceCount' },
  ];
  return (
    <div data-testid="customer-detail">
      <PageHeader
        back="/manage/system/customer/list"
        title={c?.name ?? ''}
        extra={
          c &&
          can('auth_customer_list') && (
            <Button onClick={() => drawer.edit(c)} data-testid="customer-edit">
              {t('com_edit')}
            </Button>
          )
        }
      />
      <Card loading={q.isPending}>
        {c && (
          <Descriptions bordered size="small" column={{ xs: 1, md: 2 }}>
            <Descriptions.Item label={t('customer.name')}>{c.name}</Descriptions.Item>
            <Descriptions.Item label={t('customer.code')}>{c.code}</Descriptions.Item>
            <Descriptions.Item label={t('customer.logo')}><ObjectImage value={c.logo} height={48} testId="customer-logo" /></Descriptions.Item>
            <Descriptions.Item label={t('customer.contact')}>{c.contact || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('customer.telephone')}>{c.telephone || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('customer.address')}>{c.address || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('customer.platform')}>
              <YesNo value={c.platform} />
            </Descriptions.Item>
            <Descriptions.Item label={t('customer.readOnly')}>
              <YesNo value={c.readOnly} />
            </Descriptions.Item>
            <Descriptions.Item label={t('customer.siteCount')}>{c.siteCount}</Descriptions.Item>
            <Descriptions.Item label={t('customer.userCount')}>{c.userCount}</Descriptions.Item>
            <Descriptions.Item label={t('com_create_time')}>{formatTime(c.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('com_update_time')}>{formatTime(c.updatedAt)}</Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      <Tabs
        style={{ marginTop: 16 }}
        items={[
          {
            key: 'sites',
            label: t('customer.sites'),
            children: <QueryTable<Site> query={sites} rowKey="id" size="small" columns={siteCols} dataSource={sites.data?.list ?? []} pagination={false} />,
          },
          ...(can('auth_user_list') ? [{ key: 'users', label: t('customer.users'), children: <CustomerUsers customerId={id} /> }] : []),
        ]}
      />
      <FormDrawer<CustomerInput> open={drawer.open} title={t('customer.edit')} initialValues={drawer.row ?? undefined} onClose={drawer.close} onSubmit={(v) => save(v, id)} testId="customer-form">
        <CustomerFields />
      </FormDrawer>
    </div>
  );
}

function CustomerUsers({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: userKeys.ofCustomer(customerId), queryFn: () => listUsers({ customerId, page: 1, pageSize: 100 }) });
  const users = (q.data?.list ?? []).filter((u) => u.customerId === customerId);
  const cols: ColumnsType<User> = [
    { title: t('user.userName'), dataIndex: 'userName', key: 'userName', render: (v: string, r) => <Link to={`/manage/system/user/detail/${r.id}`}>{v}</Link> },
    { title: t('user.role'), dataIndex: 'roleName', key: 'roleName' },
    { title: t('user.email'), dataIndex: 'email', key: 'email' },
  ];
  return <QueryTable<User> query={q} rowKey="id" size="small" columns={cols} dataSource={users} pagination={false} />;
}
