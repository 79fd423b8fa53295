import { useState } from 'react';
import { Alert, Button, Form, Result, Spin } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { resetPassword, validateResetToken, authKeys } from '../../services/auth';
import PasswordFields from '../../components/PasswordFields';
import UserShell from '../../components/UserShell';

export default function ResetPassword() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const valid = useQuery({
    queryKey: authKeys.resetToken(token),
    queryFn: () => validateResetToken(token),
    enabled: !!token,
    retry: false,
  });
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (v: { password: string }) => {
    setBusy(true);
    setError(null);
    try {
      await resetPassword(token, v.password);
      setDone(true);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (token && valid.isPending) body = <Spin />;
  else if (!token || valid.isError) {
    body = (
      <Result
        status="warning"
        title={t('reset.expired')}
        data-testid="reset-expired"
        extra={<Link to="/find-password">{t('reset.again')}</Link>}
      />
    );
  } else if (done) {
    body = <Result status="success" title={t('reset.done')} extra={<Link to="/login">{t('findPassword.backToLogin')}</Link>} />;
  } else {
    body = (
      <Form layout="vertical" onFinish={submit} requiredMark={false}>
        <Alert type="info" message={t('reset.forAccount', { email: valid.data?.email ?? '' })} style={{ marginBottom: 16 }} />
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
        <PasswordFields />
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="reset-submit">
          {t('reset.submit')}
        </Button>
      </Form>
    );
  }
  return <UserShell title={t('reset.title')}>{body}</UserShell>;
}
