/** One model: its fields, and its config, param and control items (docs/decisions.md#device-models). */
import { useMemo, useState } from 'react';
import { App, Button, Card, Descriptions, Space, Tabs, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageHeader, NotFoundResult } from '../../../components/PageHeader';
import FormDrawer, { useDrawer } from '../../../components/FormDrawer';
import { YesNo } from '../../../components/Flag';
import ObjectImage, { ObjectImages } from '../../../components/ObjectImage';
import { useActions } from '../../../hooks/useActions';
import { useModelOptions } from '../../../hooks/useOptions';
import {
  addItem,
  addStorageItems,
  deleteItems,
  getModel,
  listItems,
  updateItem,
  STORAGE_DEVICE_TYPES,
  type ItemInput,
  type ItemKind,
  modelKeys,
} from '../../../services/deviceModel';
import type { ModelItem } from '../../../services/typings';
import { duplicateControlCodes } from '../../../utils/dataRange';
import { displayItemName, displayRange } from '../../../utils/names';
import { ItemFields, ModelFields } from './components/ModelFields';
import { toModelValues, useSaveModel, type ModelValues } from './ModelList';
import QueryTable from '../../../components/QueryTable';

const KINDS: ItemKind[] = ['config', 'param', 'control'];

export default function ModelDetail({ id }: { id: number }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<ItemKind>('config');
  const [editing, setEditing] = useState(false);
  const q = useQuery({ queryKey: modelKeys.detail(id), queryFn: () => getModel(id), retry: false });
  const models = useModelOptions();
  const save = useSaveModel();
  if (q.isError) return <NotFoundResult />;
  const m = q.data;
  return (
    <div data-testid="model-detail">
      <PageHeader
        back="/manage/system/device-model"
        title={m?.name ?? ''}
        extra={
          <Button onClick={() => setEditing(true)} data-testid="model-edit">
            {t('com_edit')}
          </Button>
        }
      />
      <Card loading={q.isPending} style={{ marginBottom: 16 }}>
        {m && (
          <Descriptions bordered size="small" column={{ xs: 1, md: 3 }}>
            <Descriptions.Item label={t('model.deviceType')}>{t(`model.type.${m.deviceType}`)}</Descriptions.Item>
            <Descriptions.Item label={t('model.parent')}>{m.parentName || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('model.vendor')}>{m.vendor || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('model.supportsSsh')}>
              <YesNo value={m.supportsSsh} />
            </Descriptions.Item>
            <Descriptions.Item label={t('model.supportsWeb')}>
              <YesNo value={m.supportsWeb} />
            </Descriptions.Item>
            <Descriptions.Item label={t('model.aliases')}>{m.aliases.length ? m.aliases.map((a) => <Tag key={a}>{a}</Tag>) : '-'}</Descriptions.Item>
            <Descriptions.Item label={t('model.icon')}>
              <ObjectImage value={m.icon} width={40} height={40} />
            </Descriptions.Item>
            <Descriptions.Item label={t('model.images')} span="filled">
              <ObjectImages values={m.images} />
            </Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      <Tabs
        activeKey={kind}
        onChange={(k) => setKind(k as ItemKind)}
        items={KINDS.map((k) => ({
          key: k,
          label: t(`item.kind.${k}`),
          children: <ItemTable modelId={id} kind={k} storage={!!m && STORAGE_DEVICE_TYPES.includes(m.deviceType)} />,
        }))}
      />
      <FormDrawer<ModelValues>
        open={editing}
        title={t('model.edit')}
        initialValues={m ? toModelValues(m) : undefined}
        onClose={() => setEditing(false)}
        onSubmit={(v) => save(v, id)}
        testId="model-form"
      >
        <ModelFields parents={models.filter((o) => o.value !== id)} />
      </FormDrawer>
    </div>
  );
}

/** A model's items of one kind; a storage unit's model also offers the storage template's items. */
function ItemTable({ modelId, kind, storage }: { modelId: number; kind: ItemKind; storage: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const q = useQuery({ queryKey: modelKeys.items(modelId, kind), queryFn: () => listItems(modelId, kind) });
  const drawer = useDrawer<ModelItem>();
  const { run, confirm } = useActions();
  const items = useMemo(() => q.data ?? [], [q.data]);
  const defaults: Partial<ItemInput> =
    kind === 'control' ? { controlLevel: 1, displayPriority: 0 } : { dataType: 'int', readLevel: 0, writeLevel: 0, batch: false, displayPriority: 0 };
  const cols: ColumnsType<ModelItem> =
    kind === 'control'
      ? [
          { title: t('item.controlName'), dataIndex: 'controlName', key: 'controlName', render: (v: string) => displayItemName(v, t) || '-' },
          { title: t('item.controlTypeCode'), dataIndex: 'controlTypeCode', key: 'code', render: (v: number) => `${v} · ${t(`control.type.${v}`)}` },
          { title: t('item.controlLevel'), dataIndex: 'controlLevel', key: 'controlLevel' },
          { title: t('item.param1Name'), dataIndex: 'param1Name', key: 'p1', render: (v: string) => displayItemName(v, t) || '-' },
          { title: t('item.param2Name'), dataIndex: 'param2Name', key: 'p2', render: (v: string) => displayItemName(v, t) || '-' },
        ]
      : [
          { title: t('item.configGroup'), dataIndex: 'configGroup', key: 'configGroup', render: (v: string) => displayItemName(v, t) || '-' },
          { title: t('item.configItem'), dataIndex: 'configItem', key: 'configItem', render: (v: string) => displayItemName(v, t) || '-' },
          { title: t('item.protocolKey'), dataIndex: 'protocolKey', key: 'protocolKey', render: (v: string) => <span translate="no">{v}</span> },
          { title: t('item.dataType'), dataIndex: 'dataType', key: 'dataType', render: (v: string) => t(`dataType.${v}`) },
          { title: t('item.dataRange'), dataIndex: 'dataRange', key: 'dataRange', render: (v: string, r) => <span style={{ whiteSpace: 'pre' }}>{displayRange(r.dataType, v, t) || '-'}</span> },
          { title: t('item.readLevel'), dataIndex: 'readLevel', key: 'readLevel' },
          { title: t('item.writeLevel'), dataIndex: 'writeLevel', key: 'writeLevel' },
          { title: t('item.batch'), dataIndex: 'batch', key: 'batch', render: (v: boolean) => <YesNo value={v} /> },
        ];
  cols.push(
    { title: t('item.displayPriority'), dataIndex: 'displayPriority', key: 'displayPriority' },
    {
      title: t('com_actions'),
      key: 'actions',
      render: (_: unknown, r) => (
        <Space>
          <a onClick={() => drawer.edit(r)}>{t('com_edit')}</a>
          <a onClick={() => confirm(() => deleteItems([r.id]), { title: t('com_confirm_delete', { name: displayItemName(r.controlName || r.configItem, t) }), danger: true, invalidate: [modelKeys.itemsOf(modelId)] })}>
            {t('com_delete')}
          </a>
        </Space>
      ),
    },
  );
  const addTemplate = () => {
    let added = 0;
    void run(
      async () => {
        added = (await addStorageItems(modelId)).added;
      },
      { success: false, invalidate: [modelKeys.itemsOf(modelId)], onDone: () => void message.success(t('item.storageAdded', { count: added })) },
    );
  };
  const submit = (v: Partial<ItemInput>) => {
    const body: ItemInput = {
      configGroup: '',
      configItem: '',
      protocolKey: '',
      displayPriority: 0,
      readLevel: 0,
      writeLevel: 0,
      batch: false,
      dataType: 'string',
      dataRange: '',
      controlName: '',
      controlTypeCode: 0,
      controlLevel: 0,
      param1Name: '',
      param2Name: '',
      ...v,
      modelId,
      kind,
    };
    const id = drawer.row?.id;
    return run(() => (id ? updateItem({ ...body, id }) : addItem(body)), { invalidate: [modelKeys.itemsOf(modelId)] });
  };
  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'flex-end', marginBottom: 8 }}>
        {storage && kind !== 'config' && (
          <Button onClick={addTemplate} data-testid="item-add-storage">
            {t('item.addStorage')}
          </Button>
        )}
        <Button type="primary" onClick={drawer.add} data-testid={`item-add-${kind}`}>
          {t('item.add')}
        </Button>
      </Space>
      <QueryTable<ModelItem> query={q} rowKey="id" size="small" columns={cols} dataSource={items} pagination={false} scroll={{ x: 'max-content' }} />
      <FormDrawer<Partial<ItemInput>>
        open={drawer.open}
        title={drawer.row?.id ? t('item.edit') : t('item.add')}
        initialValues={drawer.row?.id ? drawer.row : defaults}
        onClose={drawer.close}
        onSubmit={submit}
        testId="item-form"
      >
        <ItemFields kind={kind} codeTaken={(code) => duplicateControlCodes(items, { id: drawer.row?.id, controlTypeCode: code })} />
      </FormDrawer>
    </>
  );
}

