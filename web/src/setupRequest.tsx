import '@ant-design/v5-patch-for-react-19';
/** Binds the request layer to antd (toasts, dialog), i18next and the router. */
import i18n, { currentLocale } from './i18n';
import { configureRequest } from './services/request';
import { clearSession, refreshSession } from './models/session';

export const TOAST_DURATION_S = 5;

// antd's message and Modal load on first use (utils/antdLazy.tsx): the sign-in page does not carry them.
let messageApi: Promise<(typeof import('./utils/antdLazy'))['message']> | undefined;
const loadMessage = () =>
  (messageApi ??= import('./utils/antdLazy').then(({ message }) => {
    message.config({ duration: TOAST_DURATION_S, maxCount: 1 });
    return message;
  }));

export function setupRequest(navigate: (path: string) => void): void {
  configureRequest({
    t: (key) => i18n.t(key),
    getLocale: currentLocale,
    notifyError: (content) => {
      loadMessage()
        .then((message) => message.error({ content, duration: TOAST_DURATION_S }))
        .catch(() => console.error(content));
    },
    showSessionExpired: (onOk) => {
      import('./utils/antdLazy').then(({ Modal }) => Modal.warning({
        title: i18n.t('com_session_expired_title'),
        content: <div data-testid="session-expired-dialog">{i18n.t('com_session_expired')}</div>,
        okText: i18n.t('com_ok'),
        closable: false,
        maskClosable: false,
        keyboard: false,
        wrapClassName: 'session-expired-dialog',
        okButtonProps: { 'data-testid': 'session-expired-ok' } as Record<string, string>,
        onOk,
      })).catch(() => {
        window.alert(i18n.t('com_session_expired'));
        onOk();
      });
    },
    clearSession,
    navigate,
    onPrivacyPending: () => {
      refreshSession().catch(() => undefined);
    },
  });
}
