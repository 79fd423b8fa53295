/** The signed-in user's page: profile (nickName, contact, avatar), password, email. */
import { useEffect, useState } from 'react';
import { App, Button, Card, Descriptions, Form, Input, Tabs } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { changeEmail, changePassword, getOwner, updateOwner, ownerKeys } from '../../services/owner';
import { refreshSession } from '../../models/session';
import { FormButtons } from '../../components/FormDrawer';
import PasswordFields from '../../components/PasswordFields';
import ImageField from '../../components/ImageField';
import ObjectImage from '../../components/ObjectImage';

type ProfileValues = { nickName: string; contact: string; avatar?: string };

function Profile() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const owner = useQuery({ queryKey: ownerKeys.detail, queryFn: getOwner });
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<ProfileValues>();
  useEffect(() => {
    if (owner.data) form.setFieldsValue({ nickName: owner.data.nickName, contact: owner.data.contact, avatar: owner.data.avatar });
  }, [owner.data, form]);

  const save = async (v: ProfileValues) => {
    setBusy(true);
    try {
      await updateOwner({ nickName: v.nickName ?? '', contact: v.contact ?? '', avatar: (v.avatar ?? '').trim() });
      void message.success(t('com_msg_save_success'));
      setEditing(false);
      await qc.invalidateQueries({ queryKey: ownerKeys.detail });
      await refreshSession();
    } catch {
      /* toast shown by the request layer */
    } finally {
      setBusy(false);
    }
  };

  const d = owner.data;
  return (
    <Card loading={owner.isPending} title={t('my.profile')} extra={!editing && <Button onClick={() => setEditing(true)} data-testid="my-edit">{t('com_edit')}</Button>}>
      {editing ? (
        <Form form={form} layout="vertical" onFinish={save} style={{ maxWidth: 420 }}>
          <Form.Item name="nickName" label={t('my.nickName')} rules={[{ max: 64 }]}>
            <Input data-testid="my-nickname" />
          </Form.Item>
          <Form.Item name="contact" label={t('my.contact')} rules={[{ max: 64 }]}>
            <Input data-testid="my-contact" />
          </Form.Item>
          <Form.Item name="avatar" label={t('my.avatar')} rules={[{ max: 512 }]}>
            <ImageField testId="my-avatar" />
          </Form.Item>
          <FormButtons>
            <Button onClick={() => setEditing(false)}>{t('com_cancel')}</Button>
            <Button type="primary" htmlType="submit" loading={busy} data-testid="my-save">
              {t('com_save')}
            </Button>
          </FormButtons>
        </Form>
      ) : (
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label={t('my.userName')}>{d?.userName}</Descriptions.Item>
          <Descriptions.Item label={t('my.nickName')}>{d?.nickName || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('my.email')}>{d?.email || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('my.contact')}>{d?.contact || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('my.avatar')}>
            <ObjectImage value={d?.avatar} height={48} testId="my-avatar-image" />
          </Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}

function ChangePassword() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const submit = async (v: { old: string; password: string }) => {
    setBusy(true);
    try {
      await changePassword(v.old, v.password);
      void message.success(t('my.passwordChanged'));
      form.resetFields();
    } catch {
      /* toast shown by the request layer */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('my.changePassword')}>
      <Form form={form} layout="vertical" onFinish={submit} style={{ maxWidth: 420 }}>
        <Form.Item name="old" label={t('password.old')} rules={[{ required: true, message: t('com_value_required') }]}>
          <Input.Password autoComplete="current-password" data-testid="password-old" />
        </Form.Item>
        <PasswordFields />
        <FormButtons>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="my-password-submit">
            {t('com_save')}
          </Button>
        </FormButtons>
      </Form>
    </Card>
  );
}

function ChangeEmail() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const submit = async (v: { email: string; password: string }) => {
    setBusy(true);
    try {
      await changeEmail(v.password, v.email.trim());
      void message.success(t('my.emailChanged'));
      form.resetFields();
      await qc.invalidateQueries({ queryKey: ownerKeys.detail });
    } catch {
      /* toast shown by the request layer */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('my.changeEmail')}>
      <Form form={form} layout="vertical" onFinish={submit} style={{ maxWidth: 420 }}>
        <Form.Item
          name="email"
          label={t('my.newEmail')}
          rules={[
            { required: true, message: t('com_value_required') },
            { type: 'email', message: t('findPassword.emailInvalid') },
          ]}
        >
          <Input autoComplete="email" data-testid="my-email" />
        </Form.Item>
        <Form.Item name="password" label={t('my.verifyPassword')} rules={[{ required: true, message: t('com_value_required') }]}>
          <Input.Password autoComplete="current-password" data-testid="my-email-password" />
        </Form.Item>
        <FormButtons>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="my-email-submit">
            {t('com_save')}
          </Button>
        </FormButtons>
      </Form>
    </Card>
  );
}

export default function MyPage() {
  const { t } = useTranslation();
  return (
    <Tabs
      items={[
        { key: 'profile', label: t('my.profile'), children: <Profile /> },
        { key: 'password', label: t('my.changePassword'), children: <ChangePassword /> },
        { key: 'email', label: t('my.changeEmail'), children: <ChangeEmail /> },
      ]}
    />
  );
}
