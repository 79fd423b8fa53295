/** system/user/auth/:id — the customers and sites a user may see (used by roles with "assigned" access). */
import { useEffect, useState } from 'react';
import { Card, Form, Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader, NotFoundResult } from '../../../components/PageHeader';
import { useActions } from '../../../hooks/useActions';
import { useCustomerOptions, useSiteOptions } from '../../../hooks/useOptions';
import { assignUser, getUser, userKeys } from '../../../services/user';
import { FormPageActions } from '../../../components/FormDrawer';

export default function UserAuth() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const [form] = Form.useForm<{ customerIds: number[]; siteIds: number[] }>();
  const [busy, setBusy] = useState(false);
  const { run } = useActions();
  const customers = useCustomerOptions();
  const sites = useSiteOptions();
  const q = useQuery({ queryKey: userKeys.detail(id), queryFn: () => getUser(id), enabled: id > 0, retry: false });
  useEffect(() => {
    if (q.data) form.setFieldsValue({ customerIds: q.data.customerIds ?? [], siteIds: q.data.siteIds ?? [] });
  }, [q.data, form]);
  if (!(id > 0) || q.isError) return <NotFoundResult />;
  const submit = async (v: { customerIds?: number[]; siteIds?: number[] }) => {
    setBusy(true);
    const ok = await run(() => assignUser(id, v.customerIds ?? [], v.siteIds ?? []), { success: t('com_msg_save_success'), invalidate: [userKeys.list, userKeys.details] });
    setBusy(false);
    if (ok) void navigate(`/manage/system/user/detail/${id}`);
  };
  return (
    <div data-testid="user-auth">
      <PageHeader back title={`${t('menu.user.auth')} · ${q.data?.userName ?? ''}`} />
      <Card loading={q.isPending}>
        <Typography.Paragraph type="secondary">{t('user.assignHint')}</Typography.Paragraph>
        <Form form={form} layout="vertical" onFinish={submit} style={{ maxWidth: 640 }}>
          <Form.Item name="customerIds" label={t('user.customers')}>
            <Select mode="multiple" optionFilterProp="label" options={customers} />
          </Form.Item>
          <Form.Item name="siteIds" label={t('user.sites')}>
            <Select mode="multiple" optionFilterProp="label" options={sites} />
          </Form.Item>
          <FormPageActions busy={busy} />
        </Form>
      </Card>
    </div>
  );
}
