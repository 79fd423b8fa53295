import type { ThemeConfig } from 'antd';
import { REDUCED_MOTION } from './utils/motion';

/**
 * The console's antd theme: the app's ConfigProvider and the static dialogs (utils/antdLazy.tsx)
 * share it. colorLink is a seed of its own in antd 5 (blue by default): links take the theme's
 * green too (issue 30 item 20). A reader who asked for reduced motion gets antd without its
 * animations (`motion: false`).
 */
export function themeOf(reducedMotion: boolean): ThemeConfig {
  return {
    token: {
      colorPrimary: '#0b7a5a',
      colorLink: '#0b7a5a',
      colorLinkHover: '#23956f',
      colorLinkActive: '#065c43',
      motion: !reducedMotion,
    },
  };
}

export const THEME: ThemeConfig = themeOf(REDUCED_MOTION);
