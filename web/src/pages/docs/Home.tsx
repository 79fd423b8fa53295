/**
 * docs/home — the wiki's front page (docs/docs-wiki.md): search, the three document types with
 * their counts, the categories and the recently changed documents the caller may read.
 */
import { Button, Card, Col, Empty, Flex, Input, List, Row, Space, Statistic, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { useCan } from '../../components/access';
import { docsHome, docsKeys, DOC_TYPES } from '../../services/docs';
import { formatTime } from '../../utils/time';
import { DocIcon, DocTypeTag } from './components/shared';

export default function DocsHome() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useCan();
  const home = useQuery({ queryKey: docsKeys.home(), queryFn: docsHome });
  const counts = (home.data?.counts ?? {}) as Record<string, number>;
  return (
    <div data-testid="docs-home">
      <PageHeader
        title={t('menu.docs.home')}
        extra={
          <>
            {can('auth_docs_search') && (
              <Input.Search
                placeholder={t('docs.search.placeholder')}
                allowClear
                style={{ width: 280 }}
                onSearch={(q) => q.trim() && void navigate(`/manage/docs/search?q=${encodeURIComponent(q.trim())}`)}
                data-testid="docs-home-search"
              />
            )}
            {can('auth_docs_list') && <Button onClick={() => void navigate('/manage/docs/list')}>{t('menu.docs.list')}</Button>}
            {can('auth_docs_category_manage') && <Button onClick={() => void navigate('/manage/docs/category')}>{t('menu.docs.category')}</Button>}
            {can('auth_docs_add') && (
              <Button type="primary" onClick={() => void navigate('/manage/docs/add')} data-testid="docs-add">
                {t('docs.add')}
              </Button>
            )}
          </>
        }
      />
      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        {DOC_TYPES.map((type) => (
          <Col xs={24} md={8} key={type}>
            <Card hoverable size="small" onClick={() => void navigate(`/manage/docs/detail/type/${type}`)} data-testid={`docs-type-${type}`}>
              <Statistic title={t(`docs.type.${type}`)} value={counts[String(type)] ?? 0} suffix={t('docs.countSuffix')} />
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('docs.categories')} size="small">
            {home.data?.categories.length ? (
              <List
                dataSource={home.data.categories}
                renderItem={(c) => (
                  <List.Item data-testid="docs-home-category">
                    <List.Item.Meta
                      avatar={<DocIcon url={c.iconUrl} />}
                      title={<Link to={`/manage/docs/detail/type?category=${c.id}`}>{c.name}</Link>}
                      description={c.description || '-'}
                    />
                    <Typography.Text type="secondary">{t('docs.docCount', { count: c.docCount })}</Typography.Text>
                  </List.Item>
                )}
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('docs.noCategories')} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('docs.recent')} size="small">
            {home.data?.recent.length ? (
              <List
                dataSource={home.data.recent}
                renderItem={(d) => (
                  <List.Item data-testid="docs-home-recent">
                    <List.Item.Meta
                      title={
                        <Space>
                          <Link to={`/manage/docs/detail/${d.id}`}>{d.title}</Link>
                          <DocTypeTag type={d.type} />
                        </Space>
                      }
                      description={
                        <Flex gap={8} wrap>
                          <span>{d.categoryName}</span>
                          <span>{(d.updaterName ? t('docs.updatedBy', { name: d.updaterName, time: formatTime(d.updatedAt) }) : formatTime(d.updatedAt))}</span>
                        </Flex>
                      }
                    />
                  </List.Item>
                )}
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('docs.noDocs')} />
            )}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
