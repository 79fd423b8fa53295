/**
 * system/application/add and update/:id — name, description, icon, bound user, status. After an
 * add the appId and appSecret are shown once (SecretModal), then the detail opens.
 */
import { useEffect, useState } from 'react';
import { Card, Form, Input, Radio, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader, NotFoundResult } from '../../../components/PageHeader';
import ImageField from '../../../components/ImageField';
import { FormPageActions } from '../../../components/FormDrawer';
import { useActions } from '../../../hooks/useActions';
import { registerTexts } from '../../../locales/domains';
import { applicationTexts } from '../../../locales/domains/application';
import { addApp, APP_ENABLED, appKeys, appUserOptions, getApp, updateApp, type AppInput, type AppMade } from '../../../services/application';
import SecretModal from './SecretModal';

registerTexts(applicationTexts);

type Values = { name: string; description?: string; icon?: string; userId?: number; status: number };

export default function AppForm() {
  const { t } = useTranslation();
  const id = Number(useParams().id ?? 0);
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [search, setSearch] = useState('');
  const [made, setMade] = useState<AppMade | null>(null);
  const { run } = useActions();
  const app = useQuery({ queryKey: appKeys.detail(id), queryFn: () => getApp(id), enabled: id > 0, retry: false });
  const users = useQuery({ queryKey: appKeys.userOptions(search), queryFn: () => appUserOptions(search) });
  useEffect(() => {
    if (app.data) {
      const a = app.data;
      form.setFieldsValue({ name: a.name, description: a.description, icon: a.icon, userId: a.userId, status: a.status });
    }
  }, [app.data, form]);
  if (id > 0 && app.isError) return <NotFoundResult />;

  const options = (users.data ?? []).map((u) => ({ value: u.id, label: u.nickName ? `${u.userName} (${u.nickName})` : u.userName }));
  if (app.data && !options.some((o) => o.value === app.data.userId)) options.unshift({ value: app.data.userId, label: app.data.userName || `#${app.data.userId}` });

  const submit = async (v: Values) => {
    setBusy(true);
    const body: AppInput = { name: v.name, description: v.description ?? '', icon: v.icon ?? '', userId: v.userId ?? 0, status: v.status };
    let answer: AppMade | null = null;
    const ok = await run(
      async () => {
        if (id) await updateApp({ ...body, id });
        else answer = await addApp(body);
      },
      { success: t('com_msg_save_success'), invalidate: [appKeys.list, appKeys.details] },
    );
    setBusy(false);
    if (!ok) return;
    if (answer) setMade(answer);
    else void navigate(`/manage/system/application/detail/${id}`);
  };
  return (
    <div data-testid="app-form">
      <PageHeader back title={id ? t('menu.application.update') : t('menu.application.add')} />
      <Card loading={id > 0 && app.isPending}>
        <Form<Values> form={form} layout="vertical" onFinish={submit} style={{ maxWidth: 560 }} initialValues={{ status: APP_ENABLED }}>
          <Form.Item name="name" label={t('app.name')} rules={[{ required: true, whitespace: true, message: t('com_value_required') }, { max: 100 }]}>
            <Input maxLength={100} data-testid="app-name" />
          </Form.Item>
          <Form.Item name="description" label={t('app.description')} rules={[{ max: 500 }]}>
            <Input.TextArea rows={3} maxLength={500} showCount data-testid="app-description" />
          </Form.Item>
          <Form.Item name="icon" label={t('app.icon')}>
            <ImageField kind="icon" testId="app-icon" />
          </Form.Item>
          <Form.Item name="userId" label={t('app.user')} extra={t('app.userHint')} rules={[{ required: true, message: t('com_value_required') }]}>
            <Select
              showSearch
              filterOption={false}
              onSearch={setSearch}
              loading={users.isFetching}
              options={options}
              data-testid="app-user"
            />
          </Form.Item>
          <Form.Item name="status" label={t('app.status')}>
            <Radio.Group
              options={[APP_ENABLED, 0].map((v) => ({ value: v, label: t(`app.status.${v}`) }))}
              data-testid="app-status"
            />
          </Form.Item>
          <FormPageActions busy={busy} testId="app-save" />
        </Form>
      </Card>
      <SecretModal
        made={made}
        onClose={() => {
          const newId = made?.id;
          setMade(null);
          if (newId) void navigate(`/manage/system/application/detail/${newId}`);
        }}
      />
    </div>
  );
}
