/** system/device-model-alias — other names a model is known by (used by the import and by devices that report them). */
import { Button, Form, Input, Select } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import ListPage from '../../../components/ListPage';
import FormDrawer, { useDrawer } from '../../../components/FormDrawer';
import { useActions } from '../../../hooks/useActions';
import { useListState } from '../../../hooks/useListState';
import { useModelOptions } from '../../../hooks/useOptions';
import { addAlias, deleteAliases, listAliases } from '../../../services/deviceModel';
import type { ModelAlias } from '../../../services/typings';
import { formatTime } from '../../../utils/time';

const SPEC = { alias: 'string', modelId: 'number' } as const;
const KEY = 'dev/model/alias/list';

export default function AliasList() {
  const { t } = useTranslation();
  const list = useListState(SPEC);
  const models = useModelOptions();
  const drawer = useDrawer<ModelAlias>();
  const { run, confirm } = useActions();
  const columns: ColumnsType<ModelAlias> = [
    { title: t('alias.alias'), dataIndex: 'alias', key: 'alias' },
    { title: t('alias.model'), dataIndex: 'modelName', key: 'modelName' },
    { title: t('com_create_time'), dataIndex: 'createdAt', key: 'createdAt', render: (v: number) => formatTime(v) },
    {
      title: t('com_actions'),
      key: 'actions',
      render: (_: unknown, r) => (
        <a onClick={() => confirm(() => deleteAliases([r.id]), { title: t('com_confirm_delete', { name: r.alias }), danger: true, invalidate: [KEY, 'dev/model'] })}>
          {t('com_delete')}
        </a>
      ),
    },
  ];
  return (
    <>
      <ListPage<ModelAlias>
        list={list}
        queryKey={KEY}
        fetcher={listAliases}
        columns={columns}
        testId="alias-list"
        filters={[
          { name: 'alias', label: t('alias.alias') },
          { name: 'modelId', label: t('alias.model'), options: models },
        ]}
        toolbar={
          <Button type="primary" onClick={drawer.add} data-testid="alias-add">
            {t('alias.add')}
          </Button>
        }
      />
      <FormDrawer<{ modelId: number; alias: string }>
        open={drawer.open}
        title={t('alias.add')}
        onClose={drawer.close}
        onSubmit={(v) => run(() => addAlias(v.modelId, v.alias.trim()), { invalidate: [KEY, 'dev/model'] })}
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
