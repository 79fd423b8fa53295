/**
 * docs/list — document management (docs/docs-wiki.md): filters (title, type, category,
 * status) and paging in the URL; view, properties, edit properties or content, enable/disable,
 * delete, as the caller's keys and the document's write level allow.
 */
import { Button, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage, { type FilterField } from '../../components/ListPage';
import { PageHeader } from '../../components/PageHeader';
import { useCan } from '../../components/access';
import { useActions } from '../../hooks/useActions';
import { useListState } from '../../hooks/useListState';
import { deleteDocs, docsKeys, listDocs, setDocStatus, type Doc } from '../../services/docs';
import { formatTime } from '../../utils/time';
import { DocStatusTag, DocTypeTag, useCategoryOptions, useStatusOptions, useTypeOptions } from './components/shared';

const FILTER_SPEC = { title: 'string', type: 'number', categoryId: 'number', status: 'number' } as const;

export default function DocList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useCan();
  const { confirm, run } = useActions();
  const list = useListState(FILTER_SPEC);
  const typeOptions = useTypeOptions();
  const statusOptions = useStatusOptions();
  const categories = useCategoryOptions();
  const columns: ColumnsType<Doc> = [
    {
      title: t('docs.title'),
      key: 'title',
      render: (_: unknown, d) => (
        <Link to={`/manage/docs/detail/${d.id}`} data-testid="docs-list-title">
          {d.title}
        </Link>
      ),
    },
    { title: t('docs.name'), dataIndex: 'name', key: 'name', render: (v: string) => v || '-' },
    { title: t('docs.type'), dataIndex: 'type', key: 'type', render: (v: number) => <DocTypeTag type={v} /> },
    { title: t('docs.category'), dataIndex: 'categoryName', key: 'categoryName' },
    {
      title: t('docs.levels'),
      key: 'levels',
      render: (_: unknown, d) => (
        <Space size={2}>
          <Tag title={t('docs.readLevel')}>{`R${d.readLevel}`}</Tag>
          <Tag title={t('docs.writeLevel')}>{`W${d.writeLevel}`}</Tag>
        </Space>
      ),
    },
    { title: t('docs.status'), dataIndex: 'status', key: 'status', render: (v: number) => <DocStatusTag status={v} /> },
    { title: t('docs.updater'), dataIndex: 'updaterName', key: 'updaterName', render: (v: string) => v || '-' },
    { title: t('docs.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', render: (v: number) => formatTime(v) },
    {
      title: t('com_actions'),
      key: 'actions',
      fixed: 'right',
      render: (_: unknown, d) => (
        <Space wrap size={4}>
          {can('auth_docs_manage') && <a onClick={() => void navigate(`/manage/docs/props/${d.id}`)}>{t('docs.props')}</a>}
          {d.writable && can('auth_docs_edit') && <a onClick={() => void navigate(`/manage/docs/update/props/${d.id}`)}>{t('docs.editProps')}</a>}
          {d.writable && can('auth_docs_content_edit') && (
            <a onClick={() => void navigate(`/manage/docs/update/content/${d.categoryId}/${d.id}`)} data-testid="docs-list-content">
              {t('docs.editContent')}
            </a>
          )}
          {d.writable && can('auth_docs_manage') && (
            <a onClick={() => void run(() => setDocStatus([d.id], d.status === 1 ? 0 : 1), { invalidate: [docsKeys.list] })} data-testid="docs-list-status">
              {d.status === 1 ? t('docs.disable') : t('docs.enable')}
            </a>
          )}
          {d.writable && can('auth_docs_manage') && (
            <a
              onClick={() => confirm(() => deleteDocs([d.id]), { title: t('com_confirm_delete', { name: d.title }), danger: true, invalidate: [docsKeys.list] })}
              data-testid="docs-list-delete"
            >
              {t('com_delete')}
            </a>
          )}
        </Space>
      ),
    },
  ];
  const filters: FilterField[] = [
    { name: 'title', label: t('docs.title'), placeholder: t('docs.titleFilter') },
    { name: 'type', label: t('docs.type'), options: typeOptions, width: 160 },
    { name: 'categoryId', label: t('docs.category'), options: categories, width: 180 },
    { name: 'status', label: t('docs.status'), options: statusOptions, width: 120 },
  ];
  return (
    <div data-testid="docs-list-page">
      <PageHeader
        title={t('menu.docs.list')}
        extra={
          can('auth_docs_add') && (
            <Button type="primary" onClick={() => void navigate('/manage/docs/add')} data-testid="docs-add">
              {t('docs.add')}
            </Button>
          )
        }
      />
      <ListPage<Doc> list={list} queryKey={docsKeys.manageList} fetcher={(q) => listDocs(q)} columns={columns} filters={filters} testId="docs-list" />
    </div>
  );
}
