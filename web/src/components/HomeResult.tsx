import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

/** An exception page (403, 404) with the button back to Home. */
export default function HomeResult({ status, title, subTitle, testId }: { status: '403' | '404'; title: string; subTitle: string; testId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div data-testid={testId}>
      <Result
        status={status}
        title={title}
        subTitle={subTitle}
        extra={
          <Button type="primary" onClick={() => void navigate('/')}>
            {t('com_btn_home')}
          </Button>
        }
      />
    </div>
  );
}
