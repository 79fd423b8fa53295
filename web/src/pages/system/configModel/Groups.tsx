/** system/config-model/group — data groups of the catalogue, named in the user's language. */
import { Form, Input } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage, { AddButton } from '../../../components/ListPage';
import { useActionsColumn } from '../../../components/RowActions';
import FormDrawer, { useDrawer } from '../../../components/FormDrawer';
import { useActions } from '../../../hooks/useActions';
import { useListState } from '../../../hooks/useListState';
import { addGroup, deleteGroups, listGroups, updateGroup, type GroupInput, catalogueKeys } from '../../../services/catalogue';
import type { DataGroup } from '../../../services/typings';
import { formatTime } from '../../../utils/time';
import { localised } from '../../../utils/names';
import { currentLocale } from '../../../i18n';

const SPEC = { name: 'string' } as const;

export default function DataGroups() {
  const { t } = useTranslation();
  const locale = currentLocale(); // re-read on every render: useTranslation re-renders on a language change
  const list = useListState(SPEC);
  const drawer = useDrawer<DataGroup>();
  const { run } = useActions();
  const actions = useActionsColumn();
  const invalidate = [catalogueKeys.groups, catalogueKeys.allGroups];
  const columns: ColumnsType<DataGroup> = [
    { title: t('dict.groupName'), dataIndex: 'name', key: 'name', render: (v: string, r) => <Link to={`/manage/system/config-model/list?groupId=${r.id}`}>{localised(v, r.nameZh, locale)}</Link> },
    { title: t('dict.description'), dataIndex: 'description', key: 'description', render: (v: string, r) => localised(v, r.descriptionZh, locale) || '-' },
    { title: t('dict.itemCount'), dataIndex: 'itemCount', key: 'itemCount' },
    { title: t('com_update_time'), dataIndex: 'updatedAt', key: 'updatedAt', render: (v: number) => formatTime(v) },
    actions<DataGroup>({ edit: drawer.edit, remove: (r) => ({ name: r.name, call: () => deleteGroups([r.id]), invalidate }) }),
  ];
  return (
    <>
      <ListPage<DataGroup>
        list={list}
        queryKey={catalogueKeys.groups}
        fetcher={listGroups}
        columns={columns}
        testId="dict-group-list"
        filters={[{ name: 'name', label: t('dict.groupName') }]}
        toolbar={<AddButton onClick={drawer.add} testId="dict-group-add" label={t('dict.addGroup')} />}
      />
      <FormDrawer<GroupInput>
        open={drawer.open}
        title={drawer.row?.id ? t('dict.editGroup') : t('dict.addGroup')}
        initialValues={drawer.row ?? undefined}
        onClose={drawer.close}
        onSubmit={(v) => {
          const id = drawer.row?.id;
          const body = { name: v.name, nameZh: v.nameZh ?? '', description: v.description ?? '', descriptionZh: v.descriptionZh ?? '' };
          return run(() => (id ? updateGroup({ ...body, id }) : addGroup(body)), { invalidate });
        }}
        testId="dict-group-form"
      >
        <Form.Item name="name" label={t('dict.groupName')} rules={[{ required: true, whitespace: true, message: t('com_value_required') }, { max: 64 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="nameZh" label={t('dict.groupNameZh')} rules={[{ max: 64 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="description" label={t('dict.description')} rules={[{ max: 500 }]}>
          <Input.TextArea rows={3} />
        </Form.Item>
        <Form.Item name="descriptionZh" label={t('dict.descriptionZh')} rules={[{ max: 500 }]}>
          <Input.TextArea rows={3} />
        </Form.Item>
      </FormDrawer>
    </>
  );
}
