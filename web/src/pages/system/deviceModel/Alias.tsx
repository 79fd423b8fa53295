/** system/device-model-alias — other names a model is known by (used by the import and by devices that report them). */
import { Form, Input, Select } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import ListPage, { AddButton } from '../../../components/ListPage';
import { useActionsColumn } from '../../../components/RowActions';
import FormDrawer, { useDrawer } from '../../../components/FormDrawer';
import { useActions } from '../../../hooks/useActions';
import { useListState } from '../../../hooks/useListState';
import { useModelOptions } from '../../../hooks/useOptions';
import { addAlias, deleteAliases, listAliases, modelKeys } from '../../../services/deviceModel';
import type { ModelAlias } from '../../../services/typings';
import { formatTime } from '../../../utils/time';

const SPEC = { alias: 'string', modelId: 'number' } as const;

export default function AliasList() {
  const { t } = useTranslation();
  const list = useListState(SPEC);
  const models = useModelOptions();
  const drawer = useDrawer<ModelAlias>();
  const { run } = useActions();
  const actions = useActionsColumn();
  const columns: ColumnsType<ModelAlias> = [
    { title: t('alias.alias'), dataIndex: 'alias', key: 'alias' },
    { title: t('alias.model'), dataIndex: 'modelName', key: 'modelName' },
    { title: t('com_create_time'), dataIndex: 'createdAt', key: 'createdAt', render: (v: number) => formatTime(v) },
    actions<ModelAlias>({ remove: (r) => ({ name: r.alias, call: () => deleteAliases([r.id]), invalidate: [modelKeys.aliases, modelKeys.details] }) }),
  ];
  return (
    <>
      <ListPage<ModelAlias>
        list={list}
        queryKey={modelKeys.aliases}
        fetcher={listAliases}
        columns={columns}
        testId="alias-list"
        filters={[
          { name: 'alias', label: t('alias.alias') },
          { name: 'modelId', label: t('alias.model'), options: models },
        ]}
        toolbar={<AddButton onClick={drawer.add} testId="alias-add" label={t('alias.add')} />}
      />
      <FormDrawer<{ modelId: number; alias: string }>
        open={drawer.open}
        title={t('alias.add')}
        onClose={drawer.close}
        onSubmit={(v) => run(() => addAlias(v.modelId, v.alias.trim()), { invalidate: [modelKeys.aliases, modelKeys.details] })}
        testId="alias-form"
      >
        <Form.Item name="modelId" label={t('alias.model')} rules={[{ required: true, message: t('com_value_required') }]}>
          <Select showSearch optionFilterProp="label" options={models} />
        </Form.Item>
        <Form.Item name="alias" label={t('alias.alias')} rules={[{ required: true, whitespace: true, message: t('com_value_required') }, { max: 64 }]}>
          <Input />
        </Form.Item>
      </FormDrawer>
    </>
  );
}
