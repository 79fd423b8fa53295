/** system/config-model/group — data groups of the catalogue. */
import { Form, Input } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage, { AddButton } from '../../../components/ListPage';
import { useActionsColumn } from '../../../components/RowActions';
import FormDrawer, { useDrawer } from '../../../components/FormDrawer';
import { useActions } from '../../../hooks/useActions';
import { useListState } from '../../../hooks/useListState';
import { addGroup, deleteGroups, listGroups, updateGroup, type GroupInput } from '../../../services/catalogue';
import type { DataGroup } from '../../../services/typings';
import { formatTime } from '../../../utils/time';

const SPEC = { name: 'string' } as const;
const KEY = 'dict/group';

export default function DataGroups() {
  const { t } = useTranslation();
  const list = useListState(SPEC);
  const drawer = useDrawer<DataGroup>();
  const { run } = useActions();
  const actions = useActionsColumn();
  const invalidate = [KEY, 'dict/group/all'];
  const columns: ColumnsType<DataGroup> = [
    { title: t('dict.groupName'), dataIndex: 'name', key: 'name', render: (v: string, r) => <Link to={`/manage/system/config-model/list?groupId=${r.id}`}>{v}</Link> },
    { title: t('dict.description'), dataIndex: 'description', key: 'description', render: (v: string) => v || '-' },
    { title: t('dict.itemCount'), dataIndex: 'itemCount', key: 'itemCount' },
    { title: t('com_update_time'), dataIndex: 'updatedAt', key: 'updatedAt', render: (v: number) => formatTime(v) },
    actions<DataGroup>({ edit: drawer.edit, remove: (r) => ({ name: r.name, call: () => deleteGroups([r.id]), invalidate }) }),
  ];
  return (
    <>
      <ListPage<DataGroup>
        list={list}
        queryKey={KEY}
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
          const body = { name: v.name, description: v.description ?? '' };
          return run(() => (id ? updateGroup({ ...body, id }) : addGroup(body)), { invalidate });
        }}
        testId="dict-group-form"
      >
        <Form.Item name="name" label={t('dict.groupName')} rules={[{ required: true, whitespace: true, message: t('com_value_required') }, { max: 64 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="description" label={t('dict.description')} rules={[{ max: 200 }]}>
          <Input.TextArea rows={3} />
        </Form.Item>
      </FormDrawer>
    </>
  );
}
