/** system/role/list — roles; links to menu and data authorisation. */
import { Form, Input } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage, { AddButton } from '../../../components/ListPage';
import { useActionsColumn } from '../../../components/RowActions';
import FormDrawer, { useDrawer } from '../../../components/FormDrawer';
import { useCan } from '../../../components/access';
import { useActions } from '../../../hooks/useActions';
import { useListState } from '../../../hooks/useListState';
import { addRole, deleteRoles, listRoles, updateRole, roleKeys } from '../../../services/role';
import type { Role } from '../../../services/typings';
import { formatTime } from '../../../utils/time';

const SPEC = { name: 'string' } as const;

export default function RoleList() {
  const { t } = useTranslation();
  const can = useCan();
  const list = useListState(SPEC);
  const drawer = useDrawer<Role>();
  const { run } = useActions();
  const actions = useActionsColumn();
  const invalidate = [roleKeys.list, roleKeys.all, roleKeys.details];
  const columns: ColumnsType<Role> = [
    { title: t('role.name'), dataIndex: 'name', key: 'name' },
    { title: t('role.description'), dataIndex: 'description', key: 'description', render: (v: string) => v || '-' },
    { title: t('role.customerAccess'), dataIndex: 'customerAccess', key: 'customerAccess', render: (v: number) => t(`role.customerAccess.${v}`) },
    { title: t('role.siteAccess'), dataIndex: 'siteAccess', key: 'siteAccess', render: (v: number) => t(`role.siteAccess.${v}`) },
    { title: t('role.userCount'), dataIndex: 'userCount', key: 'userCount' },
    { title: t('com_update_time'), dataIndex: 'updatedAt', key: 'updatedAt', render: (v: number) => formatTime(v) },
    actions<Role>({
      fixed: true,
      edit: drawer.edit,
      extra: (r) => (
        <>
          {can('auth_role_authMenu') && <Link to={`/manage/system/role/auth/menu/${r.id}`}>{t('menu.role.authMenu')}</Link>}
          {can('auth_role_authData') && <Link to={`/manage/system/role/auth/data/${r.id}`}>{t('menu.role.authData')}</Link>}
        </>
      ),
      remove: (r) => ({ name: r.name, call: () => deleteRoles([r.id]), invalidate }),
    }),
  ];
  return (
    <>
      <ListPage<Role>
        list={list}
        queryKey={roleKeys.list}
        fetcher={listRoles}
        columns={columns}
        testId="role-list"
        filters={[{ name: 'name', label: t('role.name') }]}
        toolbar={<AddButton onClick={drawer.add} testId="role-add" label={t('role.add')} />}
      />
      <FormDrawer<{ name: string; description?: string }>
        open={drawer.open}
        title={drawer.row?.id ? t('role.edit') : t('role.add')}
        initialValues={drawer.row ?? undefined}
        onClose={drawer.close}
        onSubmit={(v) => {
          const id = drawer.row?.id;
          const body = { name: v.name.trim(), description: v.description ?? '' };
          return run(() => (id ? updateRole({ ...body, id }) : addRole(body)), { invalidate });
        }}
        testId="role-form"
      >
        <Form.Item name="name" label={t('role.name')} rules={[{ required: true, whitespace: true, message: t('com_value_required') }, { max: 64 }]}>
          <Input data-testid="role-name" />
        </Form.Item>
        <Form.Item name="description" label={t('role.description')} rules={[{ max: 200 }]}>
          <Input.TextArea rows={3} />
        </Form.Item>
      </FormDrawer>
    </>
  );
}
