/** system/user/add and update/:id — user name (fixed after creation), role, owner customer, max sites, password rules of docs/api.md#passwords-on-the-wire. */
import { useEffect, useState } from 'react';
import { Card, Form, Input, InputNumber, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader, NotFoundResult } from '../../../components/PageHeader';
import PasswordFields from '../../../components/PasswordFields';
import { useActions } from '../../../hooks/useActions';
import { useCustomerOptions, useRoleOptions } from '../../../hooks/useOptions';
import { addUser, getUser, updateUser, type UserInput, userKeys } from '../../../services/user';
import { isValidUserName } from '../../../utils/validators';
import { FormPageActions } from '../../../components/FormDrawer';

type Values = UserInput & { password?: string; confirm?: string };

export default function UserForm() {
  const { t } = useTranslation();
  const id = Number(useParams().id ?? 0);
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const { run } = useActions();
  const roles = useRoleOptions();
  const customers = useCustomerOptions();
  const user = useQuery({ queryKey: userKeys.detail(id), queryFn: () => getUser(id), enabled: id > 0, retry: false });
  useEffect(() => {
    if (user.data) form.setFieldsValue({ ...user.data, customerId: user.data.customerId || undefined, roleId: user.data.roleId || undefined } as Values);
  }, [user.data, form]);
  if (id > 0 && user.isError) return <NotFoundResult />;

  const submit = async (v: Values) => {
    setBusy(true);
    const body: UserInput = {
      nickName: v.nickName ?? '',
      email: v.email ?? '',
      contact: v.contact ?? '',
      roleId: v.roleId ?? 0,
      customerId: v.customerId ?? 0,
      maxSites: v.maxSites ?? 0,
    };
    let newId = id;
    const ok = await run(
      async () => {
        if (id) await updateUser({ ...body, id });
        else newId = (await addUser({ ...body, userName: v.userName }, v.password!)).id;
      },
      { success: t('com_msg_save_success'), invalidate: [userKeys.list, userKeys.details] },
    );
    setBusy(false);
    if (ok) void navigate(`/manage/system/user/detail/${newId}`);
  };
  return (
    <div data-testid="user-form">
      <PageHeader back title={id ? t('menu.user.update') : t('menu.user.add')} />
      <Card loading={id > 0 && user.isPending}>
        <Form<Values> form={form} layout="vertical" onFinish={submit} style={{ maxWidth: 560 }} initialValues={{ maxSites: 0 }}>
          <Form.Item
            name="userName"
            label={t('user.userName')}
            extra={id ? undefined : t('user.userNameRule')}
            rules={[
              { required: true, message: t('com_value_required') },
              { validator: (_, v: string) => (id || !v || isValidUserName(v) ? Promise.resolve() : Promise.reject(new Error(t('user.userNameRule')))) },
            ]}
          >
            <Input disabled={id > 0} autoComplete="off" data-testid="user-userName" />
          </Form.Item>
          {!id && <PasswordFields />}
          <Form.Item name="nickName" label={t('user.nickName')} rules={[{ max: 64 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="email" label={t('user.email')} rules={[{ type: 'email', message: t('findPassword.emailInvalid') }]}>
            <Input data-testid="user-email" />
          </Form.Item>
          <Form.Item name="contact" label={t('user.contact')} rules={[{ max: 64 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="roleId" label={t('user.role')} rules={[{ required: true, message: t('com_value_required') }]}>
            <Select showSearch optionFilterProp="label" options={roles} data-testid="user-role" />
          </Form.Item>
          <Form.Item name="customerId" label={t('user.customer')} extra={t('user.customerHint')}>
            <Select allowClear showSearch optionFilterProp="label" options={customers} />
          </Form.Item>
          <Form.Item name="maxSites" label={t('user.maxSites')} extra={t('user.maxSitesHint')} rules={[{ type: 'number', min: 0, max: 100000 }]}>
            <InputNumber min={0} precision={0} />
          </Form.Item>
          <FormPageActions busy={busy} testId="user-save" />
        </Form>
      </Card>
    </div>
  );
}
