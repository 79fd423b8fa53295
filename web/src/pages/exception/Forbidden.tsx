import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

export default function Forbidden() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div data-testid="page-403">
    <Result
      status="403"
      title={t('com_error_forbidden')}
      subTitle={t('com_error_forbidden_description')}
      extra={
        <Button type="primary" onClick={() => void navigate('/')}>
          {t('com_btn_home')}
        </Button>
      }
    />
    </div>
  );
}
