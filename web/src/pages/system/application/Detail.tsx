/** system/application/detail/:id — the application without its secret; edit, enable/disable, rotate, delete; its webhooks and their deliveries. */
import { Alert, Button, Card, Descriptions, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader, NotFoundResult } from '../../../components/PageHeader';
import ObjectImage from '../../../components/ObjectImage';
import { useCan } from '../../../components/access';
import { registerTexts } from '../../../locales/domains';
import { applicationTexts } from '../../../locales/domains/application';
import { APP_ENABLED, appKeys, getApp } from '../../../services/application';
import { formatTime } from '../../../utils/time';
import { AppStatus } from './components/AppStatus';
import { useAppActions } from './hooks/useAppActions';
import DeliveriesCard from './components/DeliveriesCard';
import WebhooksCard from './components/WebhooksCard';

registerTexts(applicationTexts);

export default function AppDetail() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const can = useCan();
  const navigate = useNavigate();
  const q = useQuery({ queryKey: appKeys.detail(id), queryFn: () => getApp(id), enabled: id > 0, retry: false });
  const actions = useAppActions(() => void navigate('/manage/system/application/list'));
  if (!(id > 0) || q.isError) return <NotFoundResult />;
  const a = q.data;
  const graceLeft = a && a.prevExpiresAt > Date.now();
  return (
    <div data-testid="app-detail">
      <PageHeader
        back="/manage/system/application/list"
        title={a?.name ?? ''}
        sub={a && <AppStatus status={a.status} />}
        extra={
          a &&
          can('auth_application_edit') && (
            <>
              <Button onClick={() => void navigate(`/manage/system/application/update/${id}`)}>{t('com_edit')}</Button>
              <Button onClick={() => actions.toggle(a)}>{a.status === APP_ENABLED ? t('com_disable') : t('com_enable')}</Button>
              <Button onClick={() => actions.rotate(a)} data-testid="app-rotate">
                {t('app.rotate')}
              </Button>
              <Button danger onClick={() => actions.remove(a)}>
                {t('com_delete')}
              </Button>
            </>
          )
        }
      />
      <Card loading={q.isPending}>
        {a && (
          <>
            <Descriptions bordered size="small" column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 2, xxl: 2 }}>
              <Descriptions.Item label={t('app.name')}>{a.name}</Descriptions.Item>
              <Descriptions.Item label={t('app.status')}>
                <AppStatus status={a.status} />
              </Descriptions.Item>
              <Descriptions.Item label={t('app.appId')}>
                <Typography.Text copyable code data-testid="app-detail-appid">
                  {a.appId}
                </Typography.Text>
              </Descriptions.Item>
              <Descriptions.Item label={t('app.appSecret')}>
                <Typography.Text type="secondary" data-testid="app-detail-secret">
                  {t('app.secretHidden')}
                </Typography.Text>
              </Descriptions.Item>
              <Descriptions.Item label={t('app.user')}>{a.userName || `#${a.userId}`}</Descriptions.Item>
              <Descriptions.Item label={t('app.customer')}>{a.customerName || '-'}</Descriptions.Item>
              <Descriptions.Item label={t('app.icon')}>{a.icon ? <ObjectImage value={a.icon} height={48} /> : '-'}</Descriptions.Item>
              <Descriptions.Item label={t('app.creator')}>{a.creatorName || '-'}</Descriptions.Item>
              <Descriptions.Item label={t('app.installedAt')}>{formatTime(a.installedAt)}</Descriptions.Item>
              <Descriptions.Item label={t('app.updatedAt')}>{formatTime(a.updatedAt)}</Descriptions.Item>
              <Descriptions.Item label={t('app.description')} span={2}>
                <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{a.description || '-'}</Typography.Paragraph>
              </Descriptions.Item>
            </Descriptions>
            {graceLeft && <Alert style={{ marginTop: 16 }} type="info" showIcon message={t('app.prevValidUntil', { time: formatTime(a.prevExpiresAt) })} />}
          </>
        )}
      </Card>
      {a && (
        <>
          <WebhooksCard appId={id} />
          <DeliveriesCard appId={id} />
        </>
      )}
      {actions.secretModal}
    </div>
  );
}
