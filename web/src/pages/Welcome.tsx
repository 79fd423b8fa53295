import { Result } from 'antd';
import { SmileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSession } from '../models/session';

export default function Welcome() {
  const { t } = useTranslation();
  const { session } = useSession();
  const name = session?.user?.nickName || session?.user?.userName || '';
  return (
    <div data-testid="page-welcome">
      <Result icon={<SmileOutlined />} title={t('welcome.title', { name })} subTitle={t('welcome.description')} />
    </div>
  );
}
