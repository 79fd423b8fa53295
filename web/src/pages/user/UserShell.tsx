/** Frame of the signed-out pages (login, find/reset password). */
import type { ReactNode } from 'react';
import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from '../../models/session';
import LanguageSwitch from '../../components/LanguageSwitch';

export default function UserShell({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { config } = useAppConfig();
  return (
    <div style={{ minHeight: '100vh', background: '#f0f2f5', display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
      <div style={{ alignSelf: 'stretch', display: 'flex', justifyContent: 'flex-end', padding: 16, minHeight: 24 }}>
        {config.showLanguageSwitch && <LanguageSwitch />}
      </div>
      <Typography.Title level={2} style={{ marginTop: 40 }}>
        {t('app.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('app.subtitle')}</Typography.Paragraph>
      <Card title={title} style={{ width: 400, maxWidth: '92vw' }}>
        {children}
      </Card>
    </div>
  );
}
