/**
 * antd's Modal and message for the dialogs and toasts of the request layer and main.tsx
 * (session expired, request errors, chunk reload), imported dynamically there: the sign-in
 * page's first load does not carry them (the size budget of web/scripts/budget.mjs).
 * Static dialogs render outside the app's ConfigProvider: holderRender gives them its theme.
 */
import { ConfigProvider } from 'antd';
import { THEME } from '../theme';

ConfigProvider.config({ holderRender: (children) => <ConfigProvider theme={THEME}>{children}</ConfigProvider> });

export { message, Modal } from 'antd';
