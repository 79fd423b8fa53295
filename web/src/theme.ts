import type { ThemeConfig } from 'antd';

/**
 * The console's antd theme: the app's ConfigProvider and the static dialogs (utils/antdLazy.tsx)
 * share it. colorLink is a seed of its own in antd 5 (blue by default): links take the theme's
 * green too (issue 30 item 20).
 */
export const THEME: ThemeConfig = {
  token: { colorPrimary: '#0b7a5a', colorLink: '#0b7a5a', colorLinkHover: '#23956f', colorLinkActive: '#065c43' },
};
