import { useTranslation } from 'react-i18next';
import HomeResult from './HomeResult';

/** "403 Forbidden" with the way back to Home: the /403 page, and pages that refuse in place (the docs editor). */
export default function Forbidden() {
  const { t } = useTranslation();
  return <HomeResult status="403" title={t('com_error_forbidden')} subTitle={t('com_error_forbidden_description')} testId="page-403" />;
}
