import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';
import { SITE_ENABLED } from '../../../services/site';

/** A site's status as a badge (list and detail). */
export function SiteStatus({ status }: { status: number }) {
  const { t } = useTranslation();
  return <Badge status={status === SITE_ENABLED ? 'success' : 'default'} text={t(`site.status.${status === SITE_ENABLED ? 1 : 0}`)} />;
}
