/**
 * /share/file?token=… — a shared file, signed out (docs/attachments.md#shares): the
 * file's name, size and expiry, the 4-digit access code, then the browser downloads the signed
 * link. An expired share (or unknown token) says "file sharing has expired"; wrong codes and
 * the lock show the server's messages. Light: the sign-in frame, no console chunks.
 */
import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, Result, Spin } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { RequestError } from '../../services/request';
import { SHARE_EXPIRED_CODE, shareDownload, shareInfo, type ShareInfo } from '../../services/share';
import { formatBytes } from '../../utils/format';
import { formatTime } from '../../utils/time';
import UserShell from '../../components/UserShell';
import { registerTexts } from '../../locales/domains';
import { attachTexts } from '../../locales/domains/attach';

registerTexts(attachTexts);

type State = { kind: 'loading' } | { kind: 'expired' } | { kind: 'error'; message: string } | { kind: 'ready'; info: ShareInfo };

const messageOf = (e: unknown) => (e instanceof Error && e.message ? e.message : String(e));

export default function ShareFile() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!token) {
      setState({ kind: 'expired' });
      return;
    }
    let live = true;
    shareInfo(token).then(
      (info) => live && setState({ kind: 'ready', info }),
      (e: unknown) => {
        if (!live) return;
        setState(e instanceof RequestError && e.code === SHARE_EXPIRED_CODE ? { kind: 'expired' } : { kind: 'error', message: messageOf(e) });
      },
    );
    return () => {
      live = false;
    };
  }, [token]);

  const submit = async ({ code }: { code: string }) => {
    setBusy(true);
    setError(null);
    try {
      const link = await shareDownload(token, code.trim());
      setDone(true);
      window.location.assign(link.url);
    } catch (e) {
      if (e instanceof RequestError && e.code === SHARE_EXPIRED_CODE) setState({ kind: 'expired' });
      else setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (state.kind === 'loading') body = <Spin style={{ display: 'block', margin: '32px auto' }} />;
  else if (state.kind === 'expired') body = (
      <div data-testid="share-expired">
        <Result status="warning" title={t('share.expired')} />
      </div>
    );
  else if (state.kind === 'error') body = (
      <div data-testid="share-error">
        <Alert type="error" showIcon message={state.message} />
      </div>
    );
  else {
    const { info } = state;
    body = (
      <Form layout="vertical" onFinish={submit} requiredMark={false}>
        <div style={{ marginBottom: 16 }} data-testid="share-info">
          <div style={{ fontWeight: 600, wordBreak: 'break-all' }} data-testid="share-name">
            {info.name}
          </div>
          <div style={{ opacity: 0.65 }}>
            {formatBytes(info.size)} · {info.expiresAt ? t('share.expiresAt', { time: formatTime(info.expiresAt) }) : t('share.permanent')}
          </div>
        </div>
        {info.locked && <Alert type="warning" showIcon message={t('share.locked')} style={{ marginBottom: 16 }} data-testid="share-locked" />}
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="share-code-error" />}
        {done && <Alert type="success" showIcon message={t('share.started')} style={{ marginBottom: 16 }} data-testid="share-started" />}
        <Form.Item
          name="code"
          label={t('share.code')}
          rules={[
            { required: true, message: t('share.codeRequired') },
            { pattern: /^\d{4}$/, message: t('share.codeInvalid') },
          ]}
        >
          <Input size="large" maxLength={4} inputMode="numeric" autoComplete="off" autoFocus data-testid="share-code" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={busy} data-testid="share-download">
          {t('share.download')}
        </Button>
      </Form>
    );
  }
  return <UserShell title={t('share.title')}>{body}</UserShell>;
}
