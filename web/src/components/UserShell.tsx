/**
 * Frame of the signed-out pages (login, find/reset password). Plain elements styled with the
 * theme's tokens rather than antd's Card and Typography: Card pulls in Tabs and Typography the
 * text area and tooltips, which the sign-in page does not need (the size budget of
 * scripts/budget.mjs). The language switch (an antd Select) loads only when it is shown.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from '../models/session';

const LanguageSwitch = lazy(() => import('./LanguageSwitch'));

export default function UserShell({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { config } = useAppConfig();
  const { token } = theme.useToken();
  return (
    <div
      style={{
        minHeight: '100vh',
        background: '#f0f2f5',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        // what antd's App gives the console (it is not loaded here)
        fontFamily: token.fontFamily,
        fontSize: token.fontSize,
        lineHeight: token.lineHeight,
        color: token.colorText,
      }}
    >
      <div style={{ alignSelf: 'stretch', display: 'flex', justifyContent: 'flex-end', padding: 16, minHeight: 24 }}>
        {config.showLanguageSwitch && (
          <Suspense fallback={null}>
            <LanguageSwitch />
          </Suspense>
        )}
      </div>
      <h1 style={{ marginTop: 40, marginBottom: 8, fontSize: token.fontSizeHeading2, fontWeight: 600, color: token.colorTextHeading }}>
        {t('app.title')}
      </h1>
      <p style={{ marginTop: 0, marginBottom: 24, color: token.colorTextSecondary }}>{t('app.subtitle')}</p>
      <section
        aria-label={title}
        style={{
          width: 400,
          maxWidth: '92vw',
          background: token.colorBgContainer,
          borderRadius: token.borderRadiusLG,
          border: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <h2
          style={{
            margin: 0,
            padding: '16px 24px',
            fontSize: token.fontSizeLG,
            fontWeight: 600,
            color: token.colorTextHeading,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          {title}
        </h2>
        <div style={{ padding: 24 }}>{children}</div>
      </section>
    </div>
  );
}
