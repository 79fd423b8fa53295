/**
 * docs/detail/type/:type — the documents of one type (100 alarm, 101 configuration, 102 run
 * info; none: every type), optionally of one category (?category=), that the caller may read.
 */
import { Segmented, Select, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage, { type FilterField } from '../../components/ListPage';
import { PageHeader } from '../../components/PageHeader';
import { useListState } from '../../hooks/useListState';
import { docsKeys, listDocs, DOC_TYPES, type Doc } from '../../services/docs';
import { formatTime } from '../../utils/time';
import { DocIcon, DocTypeTag, useCategoryOptions } from './components/shared';

const FILTER_SPEC = { title: 'string' } as const;

export default function DocTypeList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const type = Number(useParams().type) || 0;
  const [params, setParams] = useSearchParams();
  const categoryId = Number(params.get('category')) || 0;
  const categories = useCategoryOptions();
  const list = useListState(FILTER_SPEC);
  const columns: ColumnsType<Doc> = [
    {
      title: t('docs.title'),
      key: 'title',
      render: (_: unknown, d) => (
        <Space>
          <DocIcon url={d.iconUrl} size={24} />
          <Link to={`/manage/docs/detail/${d.id}`} data-testid="docs-type-title">
            {d.title}
          </Link>
        </Space>
      ),
    },
    { title: t('docs.name'), dataIndex: 'name', key: 'name', render: (v: string) => v || '-' },
    { title: t('docs.type'), dataIndex: 'type', key: 'type', render: (v: number) => <DocTypeTag type={v} /> },
    { title: t('docs.category'), dataIndex: 'categoryName', key: 'categoryName' },
    { title: t('docs.description'), dataIndex: 'description', key: 'description', ellipsis: true, render: (v: string) => v || '-' },
    { title: t('docs.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', render: (v: number) => formatTime(v) },
  ];
  const filters: FilterField[] = [{ name: 'title', label: t('docs.title'), placeholder: t('docs.titleFilter') }];
  return (
    <div data-testid="docs-type-page">
      <PageHeader
        back="/manage/docs/home"
        title={type ? t(`docs.type.${type}`) : t('docs.allTypes')}
        extra={
          <Space wrap>
            <Segmented
              value={type}
              options={[{ value: 0, label: t('docs.allTypes') }, ...DOC_TYPES.map((v) => ({ value: v, label: t(`docs.type.${v}`) }))]}
              onChange={(v) => void navigate(`/manage/docs/detail/type${v ? `/${v}` : ''}${categoryId ? `?category=${categoryId}` : ''}`)}
            />
            <Select
              allowClear
              style={{ width: 200 }}
              placeholder={t('docs.category')}
              options={categories}
              value={categoryId || undefined}
              onChange={(v?: number) =>
                setParams((prev) => {
                  const next = new URLSearchParams(prev);
                  if (v) next.set('category', String(v));
                  else next.delete('category');
                  next.delete('page');
                  return next;
                })
              }
            />
          </Space>
        }
      />
      <ListPage<Doc>
        list={list}
        queryKey={docsKeys.typeList(type, categoryId)}
        fetcher={(q) => listDocs({ ...q, type, categoryId })}
        columns={columns}
        filters={filters}
        testId="docs-type-list"
      />
    </div>
  );
}
