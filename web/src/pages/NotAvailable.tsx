/** The one 'not available yet' view shared by every screen that is not built yet. */
import { Result } from 'antd';
import { useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { RouteInfo } from '../routeMatch';

export default function NotAvailable() {
  const { t } = useTranslation();
  const matches = useMatches();
  const info = matches.length ? (matches[matches.length - 1].handle as RouteInfo | undefined) : undefined;
  return (
    <div data-testid="not-available">
    <Result
      status="info"
      title={info?.name ? t(info.name) : undefined}
      subTitle={t('com_not_available')}
    />
    </div>
  );
}
