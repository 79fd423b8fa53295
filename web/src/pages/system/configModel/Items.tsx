/**
 * system/config-model/list — data items of the catalogue: the name devices report (a code, kept
 * as it is), the display names in both languages, group, category, type, range, unit.
 */
import { Form, Input, Select } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import ListPage, { AddButton } from '../../../components/ListPage';
import { useActionsColumn } from '../../../components/RowActions';
import FormDrawer, { useDrawer } from '../../../components/FormDrawer';
import { useActions } from '../../../hooks/useActions';
import { useListState } from '../../../hooks/useListState';
import { useGroupOptions } from '../../../hooks/useOptions';
import { addDataItem, deleteDataItems, listDataItems, updateDataItem, type DataItemInput, catalogueKeys } from '../../../services/catalogue';
import type { DataItem } from '../../../services/typings';
import { DataTypeRange } from '../deviceModel/components/ModelFields';
import { localised, measurandLabel } from '../../../utils/names';
import { currentLocale } from '../../../i18n';

const SPEC = { name: 'string', groupId: 'number', category: 'string' } as const;

function TypeRange() {
  const dataType = Form.useWatch('dataType', Form.useFormInstance()) as string | undefined;
  return <DataTypeRange dataType={dataType} />;
}

export default function DataItems() {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(); // re-read on every render: useTranslation re-renders on a language change
  const list = useListState(SPEC);
  const groups = useGroupOptions();
  const drawer = useDrawer<DataItem>();
  const { run } = useActions();
  const actions = useActionsColumn();
  const columns: ColumnsType<DataItem> = [
    { title: t('dict.name'), key: 'label', render: (_: unknown, r) => measurandLabel({ ...r, unit: '' }, locale) },
    { title: t('dict.key'), dataIndex: 'name', key: 'name', render: (v: string) => <span translate="no">{v}</span> },
    { title: t('dict.group'), dataIndex: 'groupName', key: 'groupName', render: (v: string, r) => localised(v, r.groupNameZh, locale) || '-' },
    { title: t('dict.category'), dataIndex: 'category', key: 'category', render: (v: string) => (v ? (i18n.exists(`dict.category.${v}`) ? t(`dict.category.${v}`) : v) : '-') },
    { title: t('item.dataType'), dataIndex: 'dataType', key: 'dataType', render: (v: string) => t(`dataType.${v}`) },
    { title: t('item.dataRange'), dataIndex: 'dataRange', key: 'dataRange', render: (v: string) => <span style={{ whiteSpace: 'pre' }} translate="no">{v || '-'}</span> },
    { title: t('dict.unit'), dataIndex: 'unit', key: 'unit', render: (v: string) => v || '-' },
    actions<DataItem>({ edit: drawer.edit, remove: (r) => ({ name: r.name, call: () => deleteDataItems([r.id]), invalidate: [catalogueKeys.items, catalogueKeys.groups] }) }),
  ];
  const submit = (v: DataItemInput) => {
    const body = { ...v, labelEn: v.labelEn ?? '', labelZh: v.labelZh ?? '', category: v.category ?? '', unit: v.unit ?? '', dataRange: v.dataRange ?? '' };
    const id = drawer.row?.id;
    return run(() => (id ? updateDataItem({ ...body, id }) : addDataItem(body)), { invalidate: [catalogueKeys.items, catalogueKeys.groups] });
  };
  return (
    <>
      <ListPage<DataItem>
        list={list}
        queryKey={catalogueKeys.items}
        fetcher={listDataItems}
        columns={columns}
        testId="dict-item-list"
        filters={[
          { name: 'name', label: t('dict.name') },
          { name: 'groupId', label: t('dict.group'), options: groups },
          { name: 'category', label: t('dict.category') },
        ]}
        toolbar={<AddButton onClick={drawer.add} testId="dict-item-add" label={t('dict.addItem')} />}
      />
      <FormDrawer<DataItemInput>
        open={drawer.open}
        title={drawer.row?.id ? t('dict.editItem') : t('dict.addItem')}
        initialValues={drawer.row?.id ? drawer.row : { dataType: 'float', groupId: list.filters.groupId as number | undefined }}
        onClose={drawer.close}
        onSubmit={submit}
        testId="dict-item-form"
      >
        <Form.Item name="name" label={t('dict.name')} rules={[{ required: true, whitespace: true, message: t('com_value_required') }, { max: 100 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="labelEn" label={t('dict.labelEn')} rules={[{ max: 100 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="labelZh" label={t('dict.labelZh')} rules={[{ max: 100 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="groupId" label={t('dict.group')} rules={[{ required: true, message: t('com_value_required') }]}>
          <Select showSearch optionFilterProp="label" options={groups} />
        </Form.Item>
        <Form.Item name="category" label={t('dict.category')} rules={[{ max: 64 }]}>
          <Input />
        </Form.Item>
        <TypeRange />
        <Form.Item name="unit" label={t('dict.unit')} rules={[{ max: 16 }]}>
          <Input />
        </Form.Item>
      </FormDrawer>
    </>
  );
}
