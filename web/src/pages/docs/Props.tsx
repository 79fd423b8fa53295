/**
 * docs/props/:id — a document's properties (docs/docs-wiki.md): title, name, type, category,
 * description, icon, read and write levels, status, model and alarm codes, creator and updater
 * with times. Unreadable documents show the forbidden page, as the detail does.
 */
import { Button, Card, Descriptions, Image, Space, Tag } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { useCan } from '../../components/access';
import { formatTime } from '../../utils/time';
import { DocStatusTag, DocTypeTag } from './components/shared';
import { useRouteDoc } from './components/useRouteDoc';

export default function DocProps() {
  const { t } = useTranslation();
  const { doc: d, instead } = useRouteDoc();
  const can = useCan();
  const navigate = useNavigate();
  if (instead) return instead;
  return (
    <div data-testid="docs-props">
      <PageHeader
        back
        title={d ? t('docs.propsOf', { title: d.title }) : ''}
        extra={
          d?.writable &&
          can('auth_docs_edit') && (
            <Button type="primary" onClick={() => void navigate(`/manage/docs/update/props/${d.id}`)}>
              {t('docs.editProps')}
            </Button>
          )
        }
      />
      <Card size="small">
        {d && (
          <Descriptions bordered size="small" column={{ xs: 1, md: 2 }}>
            <Descriptions.Item label={t('docs.title')}>{d.title}</Descriptions.Item>
            <Descriptions.Item label={t('docs.name')}>{d.name || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('docs.type')}>
              <DocTypeTag type={d.type} />
            </Descriptions.Item>
            <Descriptions.Item label={t('docs.category')}>{d.categoryName}</Descriptions.Item>
            <Descriptions.Item label={t('docs.description')} span={2}>
              {d.description || '-'}
            </Descriptions.Item>
            <Descriptions.Item label={t('docs.icon')}>{d.iconUrl ? <Image src={d.iconUrl} width={64} /> : '-'}</Descriptions.Item>
            <Descriptions.Item label={t('docs.status')}>
              <DocStatusTag status={d.status} />
            </Descriptions.Item>
            <Descriptions.Item label={t('docs.readLevel')}>{t('docs.level', { level: d.readLevel })}</Descriptions.Item>
            <Descriptions.Item label={t('docs.writeLevel')}>{t('docs.level', { level: d.writeLevel })}</Descriptions.Item>
            {d.type === 100 && <Descriptions.Item label={t('docs.model')}>{d.modelName || t('docs.anyModel')}</Descriptions.Item>}
            {d.type === 100 && (
              <Descriptions.Item label={t('docs.alarmCodes')}>
                <Space size={4} wrap>
                  {d.alarmCodes.length ? d.alarmCodes.map((c) => <Tag key={c}>{c}</Tag>) : '-'}
                </Space>
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('docs.creator')}>{`${d.creatorName || '-'} · ${formatTime(d.createdAt)}`}</Descriptions.Item>
            <Descriptions.Item label={t('docs.updater')}>{`${d.updaterName || '-'} · ${formatTime(d.updatedAt)}`}</Descriptions.Item>
          </Descriptions>
        )}
      </Card>
    </div>
  );
}
