/**
 * The device page's "Remote link" panel (docs/remote-access.md): the link's state (none,
 * opening, open with kind, account, who opened it, validity and a live countdown, closed with
 * its reason) and, for holders of auth_device_edit, Open link, Close link, Restart link, Open web
 * page and Terminal, each offered only when the status answer says the model and the role allow
 * it. The status is read every 5 s while a link is opening or open and the remaining time
 * counts down locally in between. Failures (the server's localised messages: docs/remote-access.md)
 * show inline and as a toast.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { Alert, App, Button, Card, Descriptions, Space } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../components/access';
import { registerTexts } from '../../../locales/domains';
import { remoteTexts } from '../../../locales/domains/remote';
import { isCancelled } from '../../../services/request';
import {
  closeLink,
  getLinkStatus,
  linkWebUrl,
  openLink,
  remoteKeys,
  restartLink,
  type LinkStatus,
  type LinkView,
} from '../../../services/remote';
import { linkAbilities, linkState, remainingAt, statusPollMs } from './linkState';
import { linkItems } from './linkItems';
import OpenLinkModal, { type OpenLinkValues } from './OpenLinkModal';

registerTexts(remoteTexts);

// xterm.js comes with the dialog, on first use
const TerminalDialog = lazy(() => import('./TerminalDialog'));

/** The browser clock, ticking each second while `active`. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, [active]);
  return now;
}

type Busy = false | 'open' | 'close' | 'restart' | 'web';

export default function RemoteLinkPanel({ device }: { device: { id: number; sn: string } }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const can = useCan();
  const qc = useQueryClient();
  const key = remoteKeys.status(device.id);
  const [busy, setBusy] = useState<Busy>(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [choosing, setChoosing] = useState(false);
  const [terminal, setTerminal] = useState(false);
  const q = useQuery({
    queryKey: key,
    queryFn: () => getLinkStatus(device.id),
    refetchInterval: (query) => statusPollMs(linkState(query.state.data?.link)),
  });
  const link = q.data?.link ?? null;
  const state = linkState(link, busy === 'open' || busy === 'restart');
  const can_ = linkAbilities(q.data, can('auth_device_edit'));
  const now = useNow(state === 'open');
  const left = link ? remainingAt(link.remainingSec, q.dataUpdatedAt, now) : 0;

  // the local countdown reached zero: the server has destroyed the link (or is about to)
  const expired = state === 'open' && left === 0;
  useEffect(() => {
    if (expired) void qc.invalidateQueries({ queryKey: remoteKeys.status(device.id) });
  }, [expired, qc, device.id]);

  const run = async (what: Exclude<Busy, false>, call: () => Promise<LinkView | null>) => {
    setBusy(what);
    setFailure(null);
    try {
      const v = await call();
      if (v) qc.setQueryData<LinkStatus>(key, (s) => (s ? { ...s, link: v } : s));
    } catch (e) {
      if (isCancelled(e)) return;
      const text = e instanceof Error ? e.message : String(e);
      setFailure(text);
      void message.error(text);
    } finally {
      setBusy(false);
      void qc.invalidateQueries({ queryKey: key });
    }
  };

  const open = (v: OpenLinkValues) => {
    setChoosing(false);
    void run('open', () => openLink({ deviceId: device.id, kind: v.kind, minutes: v.minutes }));
  };
  const close = () =>
    modal.confirm({
      title: t('rlink.confirmClose', { sn: device.sn }),
      okText: t('com_ok'),
      cancelText: t('com_cancel'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-ok' } as { danger?: boolean },
      onOk: () => void run('close', () => closeLink(device.id)),
    });
  const restart = () =>
    modal.confirm({
      title: t('rlink.confirmRestart', { sn: device.sn }),
      content: t('rlink.confirmRestartContent'),
      okText: t('com_ok'),
      cancelText: t('com_cancel'),
      okButtonProps: { 'data-testid': 'confirm-ok' } as { danger?: boolean },
      onOk: () => void run('restart', () => restartLink(device.id)),
    });
  // The tab opens at once (a window opened after an answer may be blocked as a pop-up) and is
  // sent to the proxied page when its URL arrives.
  const openWeb = () => {
    const w = window.open('', '_blank');
    if (w) w.opener = null;
    void run('web', async () => {
      try {
        const { url } = await linkWebUrl(device.id);
        if (w) w.location.href = url;
        else window.open(url, '_blank', 'noopener');
      } catch (e) {
        w?.close();
        throw e;
      }
      return null;
    });
  };

  const buttons = (
    <Space wrap>
      {(state === 'none' || state === 'closed') && can_.kinds.length > 0 && (
        <Button type="primary" onClick={() => setChoosing(true)} disabled={!!busy} data-testid="link-open">
          {t('rlink.open')}
        </Button>
      )}
      {can_.web && (
        <Button onClick={openWeb} loading={busy === 'web'} disabled={!!busy && busy !== 'web'} data-testid="link-web">
          {t('rlink.web')}
        </Button>
      )}
      {can_.terminal && (
        <Button onClick={() => setTerminal(true)} disabled={!!busy} data-testid="link-terminal">
          {t('rlink.terminal')}
        </Button>
      )}
      {state === 'open' && can_.kinds.length > 0 && (
        <Button onClick={restart} loading={busy === 'restart'} disabled={!!busy} data-testid="link-restart">
          {t('rlink.restart')}
        </Button>
      )}
      {(state === 'open' || (state === 'opening' && !busy)) && can('auth_device_edit') && (
        <Button danger onClick={close} loading={busy === 'close'} disabled={!!busy} data-testid="link-close">
          {t('rlink.close')}
        </Button>
      )}
    </Space>
  );

  return (
    <Card title={t('rlink.title')} size="small" loading={q.isPending} extra={buttons} style={{ marginBottom: 16 }} data-testid="remote-link" data-state={state}>
      <Space direction="vertical" style={{ width: '100%' }}>
        {can_.unsupported && <Alert type="info" showIcon message={t('rlink.unsupported')} data-testid="link-unsupported" />}
        {can_.denied && !link && <Alert type="info" showIcon message={t('rlink.denied')} data-testid="link-denied" />}
        {failure && <Alert type="error" showIcon closable onClose={() => setFailure(null)} message={failure} data-testid="link-failure" />}
        <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }} items={linkItems(t, state, link, left, state === 'opening' && !!busy)} />
      </Space>
      {choosing && <OpenLinkModal sn={device.sn} kinds={can_.kinds} onOpen={open} onClose={() => setChoosing(false)} />}
      {terminal && link && (
        <Suspense fallback={null}>
          <TerminalDialog deviceId={device.id} sn={device.sn} account={link.account} onClose={() => setTerminal(false)} />
        </Suspense>
      )}
    </Card>
  );
}
