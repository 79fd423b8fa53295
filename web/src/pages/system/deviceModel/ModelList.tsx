import { Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage, { AddButton } from '../../../components/ListPage';
import { useActionsColumn } from '../../../components/RowActions';
import FormDrawer, { useDrawer } from '../../../components/FormDrawer';
import { Thumb, YesNo } from '../../../components/Flag';
import { useActions } from '../../../hooks/useActions';
import { useListState } from '../../../hooks/useListState';
import { useModelOptions } from '../../../hooks/useOptions';
import { addModel, DEVICE_TYPES, deleteModels, listModels, updateModel, type ModelInput, modelKeys } from '../../../services/deviceModel';
import type { DeviceModel } from '../../../services/typings';
import { formatTime } from '../../../utils/time';
import { ModelFields } from './components/ModelFields';

const SPEC = { name: 'string', deviceType: 'number' } as const;
export type ModelValues = Omit<ModelInput, 'images'> & { images?: string[] };

export const toModelValues = (m: Partial<DeviceModel>): Partial<ModelValues> => ({ ...m, parentId: m.parentId || undefined, images: m.images ?? [] });

export function useSaveModel() {
  const { run } = useActions();
  return (v: ModelValues, id?: number) => {
    const { images, ...rest } = v;
    const body: ModelInput = {
      ...rest,
      parentId: rest.parentId ?? 0,
      vendor: rest.vendor ?? '',
      icon: rest.icon ?? '',
      supportsSsh: !!rest.supportsSsh,
      supportsWeb: !!rest.supportsWeb,
      images: images ?? [],
    };
    return run(() => (id ? updateModel({ ...body, id }) : addModel(body)), { invalidate: [modelKeys.list, modelKeys.details, modelKeys.all] });
  };
}

export default function ModelList() {
  const { t } = useTranslation();
  const list = useListState(SPEC);
  const drawer = useDrawer<DeviceModel>();
  const actions = useActionsColumn();
  const save = useSaveModel();
  const models = useModelOptions();
  const columns: ColumnsType<DeviceModel> = [
    { title: t('model.icon'), dataIndex: 'icon', key: 'icon', render: (v: string) => <Thumb src={v} /> },
    { title: t('model.name'), dataIndex: 'name', key: 'name', render: (v: string, r) => <Link to={`/manage/system/device-model/${r.id}`}>{v}</Link> },
    { title: t('model.deviceType'), dataIndex: 'deviceType', key: 'deviceType', render: (v: number) => t(`model.type.${v}`) },
    { title: t('model.parent'), dataIndex: 'parentName', key: 'parentName', render: (v: string) => v || '-' },
    { title: t('model.vendor'), dataIndex: 'vendor', key: 'vendor', render: (v: string) => v || '-' },
    { title: t('model.supportsSsh'), dataIndex: 'supportsSsh', key: 'supportsSsh', render: (v: boolean) => <YesNo value={v} /> },
    { title: t('model.supportsWeb'), dataIndex: 'supportsWeb', key: 'supportsWeb', render: (v: boolean) => <YesNo value={v} /> },
    { title: t('model.aliases'), dataIndex: 'aliases', key: 'aliases', render: (v: string[]) => (v.length ? v.map((a) => <Tag key={a}>{a}</Tag>) : '-') },
    { title: t('model.deviceCount'), dataIndex: 'deviceCount', key: 'deviceCount' },
    { title: t('com_update_time'), dataIndex: 'updatedAt', key: 'updatedAt', render: (v: number) => formatTime(v) },
    actions<DeviceModel>({
      fixed: true,
      edit: drawer.edit,
      extra: (r) => <Link to={`/manage/system/device-model/${r.id}`}>{t('model.items')}</Link>,
      remove: (r) => ({ name: r.name, call: () => deleteModels([r.id]), invalidate: [modelKeys.list, modelKeys.all] }),
    }),
  ];
  return (
    <>
      <ListPage<DeviceModel>
        list={list}
        queryKey={modelKeys.list}
        fetcher={listModels}
        columns={columns}
        testId="model-list"
        filters={[
          { name: 'name', label: t('model.name') },
          { name: 'deviceType', label: t('model.deviceType'), options: DEVICE_TYPES.map((v) => ({ value: v, label: t(`model.type.${v}`) })) },
        ]}
        toolbar={<AddButton onClick={drawer.add} testId="model-add" label={t('model.add')} />}
      />
      <FormDrawer<ModelValues>
        open={drawer.open}
        title={drawer.row?.id ? t('model.edit') : t('model.add')}
        initialValues={toModelValues(drawer.row ?? {})}
        onClose={drawer.close}
        onSubmit={(v) => save(v, drawer.row?.id)}
        testId="model-form"
      >
        <ModelFields parents={models.filter((m) => m.value !== drawer.row?.id)} />
      </FormDrawer>
    </>
  );
}
