/** site/add and site/update/:id — every site field; receivers are users of the site's customer. */
import { useEffect, useState } from 'react';
import { Card, DatePicker, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader, NotFoundResult } from '../../components/PageHeader';
import ImageField from '../../components/ImageField';
import { useActions } from '../../hooks/useActions';
import { useCustomerOptions } from '../../hooks/useOptions';
import { addSite, getSite, updateSite, type SiteInput, siteKeys } from '../../services/site';
import { listUsers, userKeys } from '../../services/user';
import { useCan } from '../../components/access';
import { FormPageActions } from '../../components/FormDrawer';

type Values = Omit<SiteInput, 'buildDate'> & { buildDate?: Dayjs | null };

export default function SiteForm() {
  const { t } = useTranslation();
  const id = Number(useParams().id ?? 0);
  const navigate = useNavigate();
  const can = useCan();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const { run } = useActions();
  const customers = useCustomerOptions();
  const customerId = Form.useWatch('customerId', form);
  const site = useQuery({ queryKey: siteKeys.detail(id), queryFn: () => getSite(id), enabled: id > 0, retry: false });
  const users = useQuery({
    queryKey: userKeys.receivers,
    queryFn: () => listUsers({ page: 1, pageSize: 100 }),
    enabled: can('auth_user_list'),
  });
  const receiverOptions = (users.data?.list ?? [])
    .filter((u) => !customerId || u.customerId === customerId)
    .map((u) => ({ value: u.id, label: u.nickName ? `${u.userName} (${u.nickName})` : u.userName }));

  useEffect(() => {
    if (site.data) form.setFieldsValue({ ...site.data, buildDate: site.data.buildDate ? dayjs(site.data.buildDate) : null });
  }, [site.data, form]);

  if (id > 0 && site.isError) return <NotFoundResult />;

  const submit = async (v: Values) => {
    setBusy(true);
    const body: SiteInput = {
      ...v,
      code: v.code ?? '',
      contactPerson: v.contactPerson ?? '',
      contactPhone: v.contactPhone ?? '',
      address: v.address ?? '',
      image: v.image ?? '',
      receivers: v.receivers ?? [],
      buildDate: v.buildDate ? v.buildDate.format('YYYY-MM-DD') : '',
    };
    let newId = id;
    const ok = await run(async () => {
      if (id) await updateSite({ ...body, id });
      else newId = (await addSite(body)).id;
    }, { success: t('com_msg_save_success'), invalidate: [siteKeys.list, siteKeys.details, siteKeys.options] });
    setBusy(false);
    if (ok) void navigate(`/manage/site/detail/${newId}`);
  };

  const req = { required: true, whitespace: true, message: t('com_value_required') };
  return (
    <div data-testid="site-form">
      <PageHeader back title={id ? t('menu.site.update') : t('menu.site.add')} />
      <Card loading={id > 0 && site.isPending}>
        <Form<Values> form={form} layout="vertical" onFinish={submit} style={{ maxWidth: 640 }}>
          <Form.Item name="customerId" label={t('site.customer')} rules={[{ required: true, message: t('com_value_required') }]}>
            <Select showSearch optionFilterProp="label" options={customers} disabled={id > 0} data-testid="site-customer" />
          </Form.Item>
          <Form.Item name="name" label={t('site.name')} rules={[req, { max: 64 }]}>
            <Input data-testid="site-name" />
          </Form.Item>
          <Form.Item name="code" label={t('site.code')} rules={[req, { max: 32 }, { pattern: /^[A-Za-z0-9_-]+$/, message: t('customer.codeRule') }]}>
            <Input data-testid="site-code" />
          </Form.Item>
          <Form.Item name="contactPerson" label={t('site.contactPerson')} rules={[{ max: 64 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="contactPhone" label={t('site.contactPhone')} rules={[{ max: 32 }, { pattern: /^[0-9+\-() ]*$/, message: t('com_invalid_phone') }]}>
            <Input />
          </Form.Item>
          <Form.Item name="buildDate" label={t('site.buildDate')}>
            <DatePicker format="YYYY-MM-DD" />
          </Form.Item>
          <Form.Item name="address" label={t('site.address')} rules={[{ max: 200 }]}>
            <Input.TextArea rows={2} />
          </Form.Item>
          <Form.Item name="image" label={t('site.image')}>
            <ImageField testId="site-image" />
          </Form.Item>
          <Form.Item name="receivers" label={t('site.receivers')} extra={t('site.receiversHint')}>
            <Select mode="multiple" optionFilterProp="label" options={receiverOptions} disabled={!customerId} />
          </Form.Item>
          <FormPageActions busy={busy} testId="site-save" />
        </Form>
      </Card>
    </div>
  );
}
