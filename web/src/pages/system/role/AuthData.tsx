/** system/role/auth/data/:RoeId — data authorisation: customer/site access, WEB/SSH, levels 0-5, email alarm, user permission. */
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Checkbox, Form, Radio, Select, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader, NotFoundResult } from '../../../components/PageHeader';
import { FormButtons } from '../../../components/FormDrawer';
import { useActions } from '../../../hooks/useActions';
import { CUSTOMER_ACCESS, getRole, LEVEL_FIELDS, setRoleData, SITE_ACCESS, WEB_SSH_ACCESS, type RoleData, roleKeys } from '../../../services/role';
import { LEVELS } from '../../../services/deviceModel';

export default function RoleAuthData() {
  const { t } = useTranslation();
  const id = Number(useParams().RoeId);
  const navigate = useNavigate();
  const [form] = Form.useForm<RoleData>();
  const [busy, setBusy] = useState(false);
  const { run } = useActions();
  const role = useQuery({ queryKey: roleKeys.detail(id), queryFn: () => getRole(id), enabled: id > 0, retry: false });
  useEffect(() => {
    if (role.data) form.setFieldsValue(role.data);
  }, [role.data, form]);
  if (!(id > 0) || role.isError) return <NotFoundResult />;
  const submit = async (v: RoleData) => {
    setBusy(true);
    await run(() => setRoleData(id, { ...v, emailAlarm: !!v.emailAlarm, userAccess: !!v.userAccess }), {
      success: t('com_msg_save_success'),
      invalidate: [roleKeys.list, roleKeys.details],
    });
    setBusy(false);
  };
  const levelLabel = (v: number) =>
    v === LEVELS[0] ? t('role.level.highest', { level: v }) : v === LEVELS[LEVELS.length - 1] ? t('role.level.lowest', { level: v }) : String(v);
  return (
    <div data-testid="role-auth-data">
      <PageHeader back="/manage/system/role/list" title={`${t('menu.role.authData')} · ${role.data?.name ?? ''}`} />
      <Card loading={role.isPending}>
        <Form<RoleData> form={form} layout="vertical" onFinish={submit} style={{ maxWidth: 720 }}>
          <Form.Item name="customerAccess" label={t('role.customerAccess')} rules={[{ required: true }]}>
            <Radio.Group options={CUSTOMER_ACCESS.map((v) => ({ value: v, label: t(`role.customerAccess.${v}`) }))} />
          </Form.Item>
          <Form.Item name="siteAccess" label={t('role.siteAccess')} rules={[{ required: true }]}>
            <Radio.Group options={SITE_ACCESS.map((v) => ({ value: v, label: t(`role.siteAccess.${v}`) }))} />
          </Form.Item>
          <Form.Item name="webSshAccess" label={t('role.webSshAccess')} rules={[{ required: true }]}>
            <Radio.Group options={WEB_SSH_ACCESS.map((v) => ({ value: v, label: t(`role.webSshAccess.${v}`) }))} />
          </Form.Item>
          <Alert type="info" showIcon message={t('role.levelHint')} style={{ marginBottom: 16 }} data-testid="role-level-hint" />
          <Space wrap size="large">
            {LEVEL_FIELDS.map((f) => (
              <Form.Item key={f} name={f} label={t(`role.${f}`)} rules={[{ required: true }]}>
                <Select style={{ width: 150 }} options={LEVELS.map((v) => ({ value: v, label: levelLabel(v) }))} />
              </Form.Item>
            ))}
          </Space>
          <Space size="large">
            <Form.Item name="emailAlarm" valuePropName="checked">
              <Checkbox>{t('role.emailAlarm')}</Checkbox>
            </Form.Item>
            <Form.Item name="userAccess" valuePropName="checked">
              <Checkbox>{t('role.userAccess')}</Checkbox>
            </Form.Item>
          </Space>
          <FormButtons>
            <Button onClick={() => void navigate('/manage/system/role/list')}>{t('com_cancel')}</Button>
            <Button type="primary" htmlType="submit" loading={busy} data-testid="role-data-save">
              {t('com_save')}
            </Button>
          </FormButtons>
        </Form>
      </Card>
    </div>
  );
}
