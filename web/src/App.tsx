import { useEffect, useState } from 'react';
import { ConfigProvider } from 'antd';
import type { Locale as AntdLocale } from 'antd/es/locale';
import enUSAntd from 'antd/es/locale/en_US';
import dayjs from 'dayjs';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { useTranslation } from 'react-i18next';
import { queryClient } from './services/queryClient';
import { router } from './router';
import { useAppConfig, useSession } from './models/session';
import { applyDefaultLocale, currentLocale, type Locale } from './i18n';
import { setTimeZone } from './utils/time';
import { THEME } from './theme';

/**
 * antd's own texts ("20 / page", "No data", the date pickers) and dayjs's month and weekday
 * names for a locale. zh-CN is a separate chunk, loaded only when chosen, so en-US users and
 * the sign-in page do not carry it.
 */
const antdLocales: Partial<Record<Locale, AntdLocale>> = { 'en-US': enUSAntd };

export async function loadAntdLocale(l: Locale): Promise<AntdLocale> {
  if (l === 'zh-CN' && !antdLocales[l]) {
    const [antd] = await Promise.all([import('antd/es/locale/zh_CN'), import('dayjs/locale/zh-cn')]);
    antdLocales[l] = antd.default;
  }
  return antdLocales[l] ?? enUSAntd;
}

export function dayjsLocaleOf(l: Locale): string {
  return l === 'zh-CN' ? 'zh-cn' : 'en';
}

// Start loading the stored locale's texts before the first render.
void loadAntdLocale(currentLocale());

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

/** The antd locale of the UI language; undefined while its chunk loads (the first render only). */
function useAntdLocale(): AntdLocale | undefined {
  const { i18n } = useTranslation();
  const lang: Locale = i18n.language === 'zh-CN' ? 'zh-CN' : 'en-US';
  const [loaded, setLoaded] = useState<AntdLocale | undefined>(() => antdLocales[lang]);
  useEffect(() => {
    let live = true;
    void loadAntdLocale(lang).then((antd) => {
      dayjs.locale(dayjsLocaleOf(lang));
      if (live) setLoaded(antd);
    });
    return () => {
      live = false;
    };
  }, [lang]);
  return loaded;
}

function Shell() {
  const antd = useAntdLocale();
  // Until the locale's texts are in (one small chunk, zh-CN only), render nothing rather than
  // English that flips to Chinese.
  if (!antd) return null;
  return (
    <ConfigProvider locale={antd} theme={THEME}>
      <ConfigEffects />
      <RouterProvider router={router} />
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
