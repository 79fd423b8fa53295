/** system/customer/list: customers with name/code filters, sort by name, create or update time. */
import { Button, Checkbox, Form, Input, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage from '../../../components/ListPage';
import { useActionsColumn } from '../../../components/RowActions';
import FormDrawer, { useDrawer } from '../../../components/FormDrawer';
import ImageField from '../../../components/ImageField';
import { Thumb, YesNo } from '../../../components/Flag';
import { useCan } from '../../../components/access';
import { useActions } from '../../../hooks/useActions';
import { useListState } from '../../../hooks/useListState';
import { addCustomer, deleteCustomers, listCustomers, updateCustomer, type CustomerInput, customerKeys } from '../../../services/customer';
import type { Customer } from '../../../services/typings';
import { formatTime } from '../../../utils/time';

const SPEC = { name: 'string', code: 'string' } as const;

export function CustomerFields() {
  const { t } = useTranslation();
  const req = [{ required: true, whitespace: true, message: t('com_value_required') }];
  return (
    <>
      <Form.Item name="name" label={t('customer.name')} rules={[...req, { max: 64 }]}>
        <Input data-testid="customer-name" />
      </Form.Item>
      <Form.Item name="code" label={t('customer.code')} rules={[...req, { max: 32 }, { pattern: /^[A-Za-z0-9_-]+$/, message: t('customer.codeRule') }]}>
        <Input data-testid="customer-code" />
      </Form.Item>
      <Form.Item name="logo" label={t('customer.logo')}>
        <ImageField testId="customer-logo" />
      </Form.Item>
      <Form.Item name="contact" label={t('customer.contact')} rules={[{ max: 64 }]}>
        <Input />
      </Form.Item>
      <Form.Item name="telephone" label={t('customer.telephone')} rules={[{ max: 32 }, { pattern: /^[0-9+\-() ]*$/, message: t('com_invalid_phone') }]}>
        <Input />
      </Form.Item>
      <Form.Item name="address" label={t('customer.address')} rules={[{ max: 200 }]}>
        <Input.TextArea rows={2} />
      </Form.Item>
      <Space size="large">
        <Form.Item name="platform" valuePropName="checked">
          <Checkbox>{t('customer.platform')}</Checkbox>
        </Form.Item>
        <Form.Item name="readOnly" valuePropName="checked">
          <Checkbox>{t('customer.readOnly')}</Checkbox>
        </Form.Item>
      </Space>
    </>
  );
}

export function useSaveCustomer() {
  const { run } = useActions();
  return (v: CustomerInput, id?: number) =>
    run(() => (id ? updateCustomer({ ...v, id }) : addCustomer(v)), { invalidate: [customerKeys.list, customerKeys.details] });
}

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
