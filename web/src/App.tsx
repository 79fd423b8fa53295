import { useEffect } from 'react';
import { App as AntdApp, ConfigProvider } from 'antd';
import enUSAntd from 'antd/locale/en_US';
import zhCNAntd from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { useTranslation } from 'react-i18next';
import { queryClient } from './services/queryClient';
import { router } from './router';
import { useAppConfig, useSession } from './models/session';
import { applyDefaultLocale } from './i18n';
import { setTimeZone } from './utils/time';

/** Applies the server config (default locale, time zone) and the user's zone once known. */
function ConfigEffects() {
  const { config, loading } = useAppConfig();
  const { session } = useSession();
  useEffect(() => {
    if (loading) return;
    applyDefaultLocale(config.defaultLocale);
    setTimeZone(config.timeZone);
  }, [config, loading]);
  useEffect(() => {
    if (session?.user?.timeZone) setTimeZone(session.user.timeZone);
  }, [session]);
  return null;
}

function Shell() {
  const { i18n } = useTranslation();
  const zh = i18n.language === 'zh-CN';
  useEffect(() => {
    dayjs.locale(zh ? 'zh-cn' : 'en');
  }, [zh]);
  return (
    <ConfigProvider locale={zh ? zhCNAntd : enUSAntd} theme={{ token: { colorPrimary: '#0b7a5a' } }}>
      <AntdApp>
        <ConfigEffects />
        <RouterProvider router={router} />
      </AntdApp>
    </ConfigProvider>
  );
}

export default function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Shell />
    </QueryClientProvider>
  );
}
