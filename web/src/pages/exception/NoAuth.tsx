import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

export default function NoAuth() {
  const { t } = useTranslation();
  return (
    <div data-testid="page-noauth">
      <Result status="403" title={t('noauth.title')} subTitle={t('noauth.description')} />
    </div>
  );
}
