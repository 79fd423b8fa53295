/**
 * Network-error view (docs/decisions.md#network-busy): optional title and description, up to three buttons:
 * return home (shown by default; goes to the site root or `onHome`), reload (hidden by
 * default), back (hidden by default). Kept light (no antd Result) because it is in the entry
 * chunk: it must show when other chunks cannot be loaded.
 */
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';

export interface NetworkErrorProps {
  title?: string;
  description?: string;
  showHome?: boolean;
  showReload?: boolean;
  showBack?: boolean;
  onHome?: () => void;
}

export default function NetworkError({
  title,
  description,
  showHome = true,
  showReload = false,
  showBack = false,
  onHome,
}: NetworkErrorProps) {
  const { t } = useTranslation();
  return (
    <div data-testid="network-error" role="alert" style={{ textAlign: 'center', padding: '64px 16px' }}>
      <div style={{ fontSize: 48, lineHeight: 1, color: '#faad14' }} aria-hidden>
        ⚠
      </div>
      <h2 style={{ fontWeight: 500, margin: '16px 0 8px' }}>{title ?? t('com_error_net')}</h2>
      {description && <p style={{ color: 'rgba(0,0,0,0.45)', margin: '0 0 24px' }}>{description}</p>}
      <Space>
        {showHome && (
          <Button type="primary" data-testid="network-error-home" onClick={() => (onHome ? onHome() : window.location.assign('/'))}>
            {t('com_btn_home')}
          </Button>
        )}
        {showReload && (
          <Button data-testid="network-error-reload" onClick={() => window.location.reload()}>
            {t('com_btn_reload')}
          </Button>
        )}
        {showBack && (
          <Button data-testid="network-error-back" onClick={() => window.history.back()}>
            {t('com_btn_back')}
          </Button>
        )}
      </Space>
    </div>
  );
}
