import '@ant-design/v5-patch-for-react-19';
/** Binds the request layer to antd (toasts, dialog), i18next and the router. */
import { message, Modal } from 'antd';
import i18n, { currentLocale } from './i18n';
import { configureRequest } from './services/request';
import { clearSession } from './models/session';

export const TOAST_DURATION_S = 5;

export function setupRequest(navigate: (path: string) => void): void {
  message.config({ duration: TOAST_DURATION_S, maxCount: 1 });
  configureRequest({
    t: (key) => i18n.t(key),
    getLocale: currentLocale,
    notifyError: (content) => {
      void message.error({ content, duration: TOAST_DURATION_S });
    },
    showSessionExpired: (onOk) => {
      Modal.warning({
        title: i18n.t('com_session_expired_title'),
        content: <div data-testid="session-expired-dialog">{i18n.t('com_session_expired')}</div>,
        okText: i18n.t('com_ok'),
        closable: false,
        maskClosable: false,
        keyboard: false,
        wrapClassName: 'session-expired-dialog',
        okButtonProps: { 'data-testid': 'session-expired-ok' } as Record<string, string>,
        onOk,
      });
    },
    clearSession,
    navigate,
  });
}
