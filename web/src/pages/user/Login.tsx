/**
 * The sign-in page. Its three fields are checked here rather than with antd's Form, which (with
 * rc-field-form, its validator and Form.Item's tooltips) would be a fifth of the page's first
 * load (the size budget of scripts/budget.mjs).
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { login } from '../../services/auth';
import { refreshSession, useAppConfig } from '../../models/session';
import Captcha, { type CaptchaHandle } from '../../components/Captcha';
import UserShell from '../../components/UserShell';

interface Values {
  userName: string;
  password: string;
  captcha: string;
}
type Field = keyof Values;

/** A field with its message below, spaced like an antd Form.Item. */
function Item({ error, id, children }: { error?: string; id: string; children: ReactNode }) {
  return (
    <div style={{ marginBottom: 24, position: 'relative' }}>
      {children}
      {error && (
        <div id={id} role="alert" className="ant-form-item-explain-error" style={{ color: '#ff4d4f', position: 'absolute', lineHeight: '22px' }}>
          {error}
        </div>
      )}
    </div>
  );
}

export default function Login() {
  const { t } = useTranslation();
  const { config, loading } = useAppConfig();
  const [values, setValues] = useState<Values>({ userName: '', password: '', captcha: '' });
  const [invalid, setInvalid] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const captchaId = useRef('');
  const captchaRef = useRef<CaptchaHandle>(null);
  const withCaptcha = !loading && config.captcha;

  const check = (v: Values) => {
    const out: Partial<Record<Field, string>> = {};
    if (!v.userName.trim()) out.userName = t('login.userNameRequired');
    if (!v.password) out.password = t('login.passwordRequired');
    if (withCaptcha && !v.captcha.trim()) out.captcha = t('login.captchaRequired');
    return out;
  };
  const set = (f: Field) => (value: string) => {
    const next = { ...values, [f]: value };
    setValues(next);
    // like antd's Form: once a field has shown its message, it follows what is typed
    if (invalid[f] !== undefined) setInvalid({ ...invalid, [f]: check(next)[f] });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const problems = check(values);
    setInvalid(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    setError(null);
    try {
      await login({ userName: values.userName.trim(), password: values.password, captchaId: captchaId.current, captcha: values.captcha });
      // the session query now holds a user: the /login guard sends them on
      const s = await refreshSession();
      if (!s) setError(t('login.infoFailed'));
    } catch (err) {
      setError(err instanceof Error && err.message !== 'cancelled' ? err.message : t('login.failed'));
      // the server used the captcha up: one new one
      setValues((v) => ({ ...v, captcha: '' }));
      captchaRef.current?.refresh();
    } finally {
      setBusy(false);
    }
  };

  const status = (f: Field) => (invalid[f] ? 'error' : undefined);
  return (
    <UserShell title={t('login.title')}>
      <form onSubmit={(e) => void submit(e)} noValidate data-testid="login-form">
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="login-error" />}
        <Item error={invalid.userName} id="login-username-error">
          <Input
            size="large"
            prefix={<UserOutlined />}
            placeholder={t('login.userName')}
            aria-label={t('login.userName')}
            autoComplete="username"
            data-testid="login-username"
            value={values.userName}
            onChange={(e) => set('userName')(e.target.value)}
            status={status('userName')}
            aria-invalid={!!invalid.userName}
            aria-describedby={invalid.userName ? 'login-username-error' : undefined}
          />
        </Item>
        <Item error={invalid.password} id="login-password-error">
          <Input.Password
            size="large"
            prefix={<LockOutlined />}
            placeholder={t('login.password')}
            aria-label={t('login.password')}
            autoComplete="current-password"
            data-testid="login-password"
            value={values.password}
            onChange={(e) => set('password')(e.target.value)}
            status={status('password')}
            aria-invalid={!!invalid.password}
            aria-describedby={invalid.password ? 'login-password-error' : undefined}
          />
        </Item>
        {withCaptcha && (
          <Item error={invalid.captcha} id="login-captcha-error">
            <Captcha ref={captchaRef} testId="login-captcha" value={values.captcha} onChange={set('captcha')} onCaptchaId={(id) => (captchaId.current = id)} />
          </Item>
        )}
        <div style={{ textAlign: 'right', marginBottom: 16 }}>
          <Link to="/find-password" data-testid="login-forgot">
            {t('login.forgot')}
          </Link>
        </div>
        <Button type="primary" htmlType="submit" size="large" block loading={busy} data-testid="login-submit">
          {t('login.submit')}
        </Button>
      </form>
    </UserShell>
  );
}
