import { useRef, useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { login } from '../../services/auth';
import { refreshSession, useAppConfig } from '../../models/session';
import Captcha, { type CaptchaHandle } from '../../components/Captcha';
import UserShell from './UserShell';

interface Values {
  userName: string;
  password: string;
  captcha?: string;
}

export default function Login() {
  const { t } = useTranslation();
  const { config, loading } = useAppConfig();
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const captchaId = useRef('');
  const captchaRef = useRef<CaptchaHandle>(null);
  const withCaptcha = !loading && config.captcha;

  const submit = async (v: Values) => {
    setBusy(true);
    setError(null);
    try {
      await login({ userName: v.userName.trim(), password: v.password, captchaId: captchaId.current, captcha: v.captcha });
      // the session query now holds a user: the /login guard sends them on
      const s = await refreshSession();
      if (!s) setError(t('login.infoFailed'));
    } catch (e) {
      setError(e instanceof Error && e.message !== 'cancelled' ? e.message : t('login.failed'));
      form.setFieldValue('captcha', '');
      captchaRef.current?.refresh();
    } finally {
      setBusy(false);
    }
  };

  return (
    <UserShell title={t('login.title')}>
      <Form form={form} onFinish={submit} layout="vertical" requiredMark={false} data-testid="login-form">
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="login-error" />}
        <Form.Item name="userName" rules={[{ required: true, whitespace: true, message: t('login.userNameRequired') }]}>
          <Input size="large" prefix={<UserOutlined />} placeholder={t('login.userName')} autoComplete="username" data-testid="login-username" />
        </Form.Item>
        <Form.Item name="password" rules={[{ required: true, message: t('login.passwordRequired') }]}>
          <Input.Password
            size="large"
            prefix={<LockOutlined />}
            placeholder={t('login.password')}
            autoComplete="current-password"
            data-testid="login-password"
          />
        </Form.Item>
        {withCaptcha && (
          <Form.Item name="captcha" rules={[{ required: true, whitespace: true, message: t('login.captchaRequired') }]}>
            <Captcha ref={captchaRef} testId="login-captcha" onCaptchaId={(id) => (captchaId.current = id)} />
          </Form.Item>
        )}
        <div style={{ textAlign: 'right', marginBottom: 16 }}>
          <Link to="/find-password" data-testid="login-forgot">
            {t('login.forgot')}
          </Link>
        </div>
        <Button type="primary" htmlType="submit" size="large" block loading={busy} data-testid="login-submit">
          {t('login.submit')}
        </Button>
      </Form>
    </UserShell>
  );
}
