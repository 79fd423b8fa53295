import type { ThemeConfig } from 'antd';

/** The console's antd theme: the app's ConfigProvider and the static dialogs (utils/antdLazy.tsx) share it. */
export const THEME: ThemeConfig = { token: { colorPrimary: '#0b7a5a' } };
