import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';
import { APP_ENABLED } from '../../../../services/application';

/** An application's status as a badge (list and detail). */
export function AppStatus({ status }: { status: number }) {
  const { t } = useTranslation();
  return <Badge status={status === APP_ENABLED ? 'success' : 'default'} text={t(`app.status.${status === APP_ENABLED ? 1 : 0}`)} />;
}
