import { useRef, useState } from 'react';
import { Alert, Button, Form, Input, Result } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { sendResetMail } from '../../services/auth';
import { currentLocale } from '../../i18n';
import Captcha, { type CaptchaHandle } from '../../components/Captcha';
import UserShell from '../../components/UserShell';
import { useAppConfig } from '../../models/session';

export default function FindPassword() {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ email: string; captcha: string }>();
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const captchaId = useRef('');
  const captchaRef = useRef<CaptchaHandle>(null);
  // --captcha=false: the server checks none, so the form asks for none (as the login form)
  const { config, loading } = useAppConfig();
  const withCaptcha = !loading && config.captcha;

  const submit = async (v: { email: string; captcha: string }) => {
    setBusy(true);
    setError(null);
    try {
      await sendResetMail({ email: v.email.trim(), captchaId: captchaId.current, captcha: v.captcha ?? '', locale: currentLocale() });
      setSent(true);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      form.setFieldValue('captcha', '');
      captchaRef.current?.refresh();
    } finally {
      setBusy(false);
    }
  };

  return (
    <UserShell title={t('findPassword.title')}>
      {sent ? (
        <div data-testid="find-password-sent">
          <Result
            status="success"
            title={t('findPassword.sent')}
            subTitle={t('findPassword.sentDescription')}
            extra={<Link to="/login">{t('findPassword.backToLogin')}</Link>}
          />
        </div>
      ) : (
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
          {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
          <Form.Item
            name="email"
            label={t('findPassword.email')}
            rules={[
              { required: true, message: t('com_value_required') },
              { type: 'email', message: t('findPassword.emailInvalid') },
            ]}
          >
            <Input size="large" autoComplete="email" data-testid="find-password-email" />
          </Form.Item>
          {withCaptcha && (
            <Form.Item name="captcha" label={t('login.captcha')} rules={[{ required: true, message: t('login.captchaRequired') }]}>
              <Captcha ref={captchaRef} testId="find-password-captcha" onCaptchaId={(id) => (captchaId.current = id)} />
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" block size="large" loading={busy} data-testid="find-password-submit">
            {t('findPassword.submit')}
          </Button>
          <div style={{ marginTop: 16, textAlign: 'center' }}>
            <Link to="/login">{t('findPassword.backToLogin')}</Link>
          </div>
        </Form>
      )}
    </UserShell>
  );
}
