import { useTranslation } from 'react-i18next';
import HomeResult from '../../components/HomeResult';

export default function NotFound() {
  const { t } = useTranslation();
  return <HomeResult status="404" title={t('notFound.title')} subTitle={t('notFound.description')} testId="page-404" />;
}
