/**
 * docs/detail/:id — one document (docs/docs-wiki.md). The detail call's errors are not toasted:
 * a document the caller may not read (above its document level, another customer's, disabled)
 * or that does not exist shows the forbidden page; the server does not say which.
 */
import { Button, Card, Descriptions, Space, Tag } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { useCan } from '../../components/access';
import RichTextView from '../../components/richtext/RichTextView';
import { formatTime } from '../../utils/time';
import { DocStatusTag, DocTypeTag } from './components/shared';
import { useRouteDoc } from './components/useRouteDoc';

export default function DocDetail() {
  const { t } = useTranslation();
  const { doc: d, instead } = useRouteDoc();
  const can = useCan();
  const navigate = useNavigate();
  if (instead) return instead;
  return (
    <div data-testid="docs-detail">
      <PageHeader
        back
        title={d?.title ?? ''}
        sub={d && <DocTypeTag type={d.type} />}
        extra={
          d && (
            <>
              {can('auth_docs_manage') && <Button onClick={() => void navigate(`/manage/docs/props/${d.id}`)}>{t('docs.props')}</Button>}
              {d.writable && can('auth_docs_edit') && <Button onClick={() => void navigate(`/manage/docs/update/props/${d.id}`)}>{t('docs.editProps')}</Button>}
              {d.writable && can('auth_docs_content_edit') && (
                <Button type="primary" onClick={() => void navigate(`/manage/docs/update/content/${d.categoryId}/${d.id}`)} data-testid="docs-edit-content">
                  {t('docs.editContent')}
                </Button>
              )}
            </>
          )
        }
      />
      {d && (
        <Card size="small">
          <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 16 }}>
            {d.name && <Descriptions.Item label={t('docs.name')}>{d.name}</Descriptions.Item>}
            <Descriptions.Item label={t('docs.category')}>{d.categoryName}</Descriptions.Item>
            <Descriptions.Item label={t('docs.updatedAt')}>{(d.updaterName ? t('docs.updatedBy', { name: d.updaterName, time: formatTime(d.updatedAt) }) : formatTime(d.updatedAt))}</Descriptions.Item>
            {d.type === 100 && <Descriptions.Item label={t('docs.model')}>{d.modelName || t('docs.anyModel')}</Descriptions.Item>}
            {d.type === 100 && (
              <Descriptions.Item label={t('docs.alarmCodes')}>
                <Space size={4} wrap>
                  {d.alarmCodes.map((c) => (
                    <Tag key={c} translate="no">
                      {c}
                    </Tag>
                  ))}
                </Space>
              </Descriptions.Item>
            )}
            {d.status !== 1 && (
              <Descriptions.Item label={t('docs.status')}>
                <DocStatusTag status={d.status} />
              </Descriptions.Item>
            )}
          </Descriptions>
          {d.description && <p style={{ color: 'rgba(0,0,0,0.55)' }}>{d.description}</p>}
          <RichTextView html={d.content} testId="docs-content" />
        </Card>
      )}
    </div>
  );
}
