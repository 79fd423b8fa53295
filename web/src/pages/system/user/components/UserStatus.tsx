import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';
import { USER_ENABLED } from '../../../../services/user';

/** A user's status as a badge (list and detail). */
export function UserStatus({ status }: { status: number }) {
  const { t } = useTranslation();
  return <Badge status={status === USER_ENABLED ? 'success' : 'default'} text={t(`user.status.${status === USER_ENABLED ? 1 : 0}`)} />;
}
