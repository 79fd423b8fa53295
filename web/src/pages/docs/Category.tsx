/**
 * docs/category — category management (docs/docs-wiki.md): name, description and an icon
 * (jpg/png up to 500 KB, uploaded as the document-icon kind). Platform categories are shared by
 * every customer; a customer's are its own. A category that holds documents cannot be deleted.
 */
import { Button, Form, Input, Select, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import FormDrawer, { useDrawer } from '../../components/FormDrawer';
import ImageField from '../../components/ImageField';
import { PageHeader } from '../../components/PageHeader';
import { useActions } from '../../hooks/useActions';
import { useCustomerOptions } from '../../hooks/useOptions';
import { addCategory, deleteCategories, docsKeys, updateCategory, type DocCategory, type DocCategoryInput } from '../../services/docs';
import { formatTime } from '../../utils/time';
import { DocIcon, useCategories } from './components/shared';

export default function DocCategories() {
  const { t } = useTranslation();
  const { confirm, run } = useActions();
  const categories = useCategories();
  const customers = useCustomerOptions();
  const drawer = useDrawer<DocCategory>();
  const customerName = (id: number) => customers.find((c) => c.value === id)?.label ?? String(id);
  const invalidate = [docsKeys.all];
  const columns: ColumnsType<DocCategory> = [
    { title: t('docs.icon'), key: 'icon', width: 72, render: (_: unknown, c) => <DocIcon url={c.iconUrl} size={32} /> },
    { title: t('docs.categoryName'), dataIndex: 'name', key: 'name', render: (v: string) => <span data-testid="docs-category-name">{v}</span> },
    { title: t('docs.description'), dataIndex: 'description', key: 'description', ellipsis: true, render: (v: string) => v || '-' },
    { title: t('docs.owner'), dataIndex: 'customerId', key: 'customerId', render: (v: number) => (v ? customerName(v) : <Tag>{t('docs.platform')}</Tag>) },
    { title: t('docs.docCountTitle'), dataIndex: 'docCount', key: 'docCount' },
    { title: t('docs.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', render: (v: number) => formatTime(v) },
    {
      title: t('com_actions'),
      key: 'actions',
      render: (_: unknown, c) =>
        c.writable && (
          <Space>
            <a onClick={() => drawer.edit(c)} data-testid="docs-category-edit">
              {t('com_edit')}
            </a>
            <a
              onClick={() => confirm(() => deleteCategories([c.id]), { title: t('com_confirm_delete', { name: c.name }), danger: true, invalidate })}
              data-testid="docs-category-delete"
            >
              {t('com_delete')}
            </a>
          </Space>
        ),
    },
  ];
  return (
    <div data-testid="docs-category-page">
      <PageHeader
        back="/manage/docs/home"
        title={t('menu.docs.category')}
        extra={
          <Button type="primary" onClick={drawer.add} data-testid="docs-category-add">
            {t('docs.categoryAdd')}
          </Button>
        }
      />
      <Table<DocCategory> rowKey="id" size="middle" loading={categories.isFetching} dataSource={categories.data ?? []} columns={columns} pagination={false} data-testid="docs-category-table" />
      <FormDrawer<DocCategoryInput>
        open={drawer.open}
        title={drawer.row?.id ? t('docs.categoryEdit') : t('docs.categoryAdd')}
        initialValues={drawer.row ?? undefined}
        onClose={drawer.close}
        onSubmit={(v) => run(() => (drawer.row?.id ? updateCategory({ ...v, id: drawer.row.id }) : addCategory(v)), { invalidate })}
        testId="docs-category-form"
      >
        {!drawer.row?.id && customers.length > 1 && (
          <Form.Item name="customerId" label={t('docs.owner')} extra={t('docs.ownerHint')}>
            <Select allowClear showSearch optionFilterProp="label" options={customers} placeholder={t('docs.platform')} />
          </Form.Item>
        )}
        <Form.Item name="name" label={t('docs.categoryName')} rules={[{ required: true, whitespace: true, message: t('docs.categoryNameRequired') }, { max: 50 }]}>
          <Input data-testid="docs-category-form-name" />
        </Form.Item>
        <Form.Item name="description" label={t('docs.description')} rules={[{ max: 500 }]}>
          <Input.TextArea rows={3} />
        </Form.Item>
        <Form.Item name="icon" label={t('docs.icon')}>
          <ImageField kind="icon" testId="docs-category-icon" />
        </Form.Item>
      </FormDrawer>
    </div>
  );
}
