/** system/customer/list: customers with name/code filters, sort by name, create or update time. */
import { Button } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage from '../../../components/ListPage';
import { useActionsColumn } from '../../../components/RowActions';
import FormDrawer, { useDrawer } from '../../../components/FormDrawer';
import { Thumb, YesNo } from '../../../components/Flag';
import { useCan } from '../../../components/access';
import { useListState } from '../../../hooks/useListState';
import { deleteCustomers, listCustomers, type CustomerInput, customerKeys } from '../../../services/customer';
import type { Customer } from '../../../services/typings';
import { formatTime } from '../../../utils/time';
import { useSaveCustomer } from './hooks/useSaveCustomer';
import { CustomerFields } from './components/CustomerFields';

const SPEC = { name: 'string', code: 'string' } as const;
const EMPTY: Partial<CustomerInput> = { platform: false, readOnly: false };

export default function CustomerList() {
  const { t } = useTranslation();
  const can = useCan();
  const list = useListState(SPEC, '-createTime');
  const drawer = useDrawer<Customer>();
  const actions = useActionsColumn();
  const save = useSaveCustomer();
  const editable = can('auth_customer_list');

  const columns: ColumnsType<Customer> = [
    { title: t('customer.logo'), dataIndex: 'logo', key: 'logo', render: (v: string) => <Thumb src={v} /> },
    {
      title: t('customer.name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      render: (v: string, r) => (can('auth_customer_detail') ? <Link to={`/manage/system/customer/detail/${r.id}`}>{v}</Link> : v),
    },
    { title: t('customer.code'), dataIndex: 'code', key: 'code' },
    { title: t('customer.contact'), dataIndex: 'contact', key: 'contact', render: (v: string) => v || '-' },
    { title: t('customer.telephone'), dataIndex: 'telephone', key: 'telephone', render: (v: string) => v || '-' },
    { title: t('customer.platform'), dataIndex: 'platform', key: 'platform', render: (v: boolean) => <YesNo value={v} /> },
    { title: t('customer.readOnly'), dataIndex: 'readOnly', key: 'readOnly', render: (v: boolean) => <YesNo value={v} /> },
    { title: t('customer.siteCount'), dataIndex: 'siteCount', key: 'siteCount' },
    { title: t('customer.userCount'), dataIndex: 'userCount', key: 'userCount' },
    { title: t('com_create_time'), dataIndex: 'createdAt', key: 'createTime', sorter: true, render: (v: number) => formatTime(v) },
    { title: t('com_update_time'), dataIndex: 'updatedAt', key: 'updateTime', sorter: true, render: (v: number) => formatTime(v) },
    actions<Customer>({
      fixed: true,
      show: () => editable,
      edit: drawer.edit,
      remove: (r) => ({ name: r.name, call: () => deleteCustomers([r.id]), invalidate: [customerKeys.list] }),
    }),
  ];

  return (
    <>
      <ListPage<Customer>
        list={list}
        queryKey={customerKeys.list}
        fetcher={listCustomers}
        columns={columns}
        testId="customer-list"
        filters={[
          { name: 'name', label: t('customer.name') },
          { name: 'code', label: t('customer.code') },
        ]}
        toolbar={
          editable && (
            <Button type="primary" onClick={drawer.add} data-testid="customer-add">
              {t('customer.add')}
            </Button>
          )
        }
      />
      <FormDrawer<CustomerInput>
        open={drawer.open}
        title={drawer.row?.id ? t('customer.edit') : t('customer.add')}
        initialValues={drawer.row?.id ? drawer.row : EMPTY}
        onClose={drawer.close}
        onSubmit={(v) => save(v, drawer.row?.id)}
        testId="customer-form"
      >
        <CustomerFields />
      </FormDrawer>
    </>
  );
}
