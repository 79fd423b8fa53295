/** system/user/list — users with userName/role/status filters; enable/disable, password. */
import { Button, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage from '../../../components/ListPage';
import { useCan } from '../../../components/access';
import { useSession } from '../../../models/session';
import { USER_ASSIGN_KEYS } from '../../../access';
import { useListState } from '../../../hooks/useListState';
import { useRoleOptions } from '../../../hooks/useOptions';
import { listUsers, USER_ENABLED, userKeys } from '../../../services/user';
import type { User } from '../../../services/typings';
import { formatClock } from '../../../utils/time';
import ZonedTitle from '../../../components/ZonedTitle';
import { useUserActions } from './hooks/useUserActions';
import { UserStatus } from './components/UserStatus';

const SPEC = { userName: 'string', roleId: 'number', status: 'number' } as const;

export default function UserList() {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const list = useListState(SPEC);
  const roles = useRoleOptions(can(['auth_role_list', 'auth_user_add', 'auth_user_edit']));
  const actions = useUserActions();
  // Nobody disables their own account (the server refuses it too): no Disable on one's own row.
  const self = useSession().session?.user.id;
  const columns: ColumnsType<User> = [
    {
      title: t('user.userName'),
      dataIndex: 'userName',
      key: 'userName',
      render: (v: string, r) => (can('auth_user_detail') ? <Link to={`/manage/system/user/detail/${r.id}`}>{v}</Link> : v),
    },
    { title: t('user.nickName'), dataIndex: 'nickName', key: 'nickName', render: (v: string) => v || '-' },
    { title: t('user.role'), dataIndex: 'roleName', key: 'roleName', width: 140, ellipsis: true, render: (v: string, r) => (r.root ? t('user.root') : v || '-') },
    { title: t('user.email'), dataIndex: 'email', key: 'email', width: 200, ellipsis: true, render: (v: string) => v || '-' },
    { title: t('user.status'), dataIndex: 'status', key: 'status', render: (v: number) => <UserStatus status={v} /> },
    { title: <ZonedTitle title={t('com_create_time')} />, dataIndex: 'createdAt', key: 'createdAt', render: (v: number) => <span style={{ whiteSpace: 'nowrap' }}>{formatClock(v)}</span> },
    {
      title: t('com_actions'),
      key: 'actions',
      fixed: 'right',
      // four actions in two lines rather than one wide column over the others at 1366 px
      width: 170,
      render: (_: unknown, r) =>
        !r.root && (
          <Space wrap size={[8, 0]}>
            {can('auth_user_edit') && <Link to={`/manage/system/user/update/${r.id}`}>{t('com_edit')}</Link>}
            {can(USER_ASSIGN_KEYS) && <Link to={`/manage/system/user/auth/${r.id}`}>{t('user.assign')}</Link>}
            {can('auth_user_edit') && r.id !== self && (
              <a onClick={() => actions.toggle(r)} data-testid={`user-toggle-${r.id}`}>
                {r.status === USER_ENABLED ? t('com_disable') : t('com_enable')}
              </a>
            )}
            {can('auth_user_edit') && <a onClick={() => actions.setPassword(r)}>{t('user.password')}</a>}
          </Space>
        ),
    },
  ];
  return (
    <>
      <ListPage<User>
        list={list}
        queryKey={userKeys.list}
        fetcher={listUsers}
        columns={columns}
        testId="user-list"
        columnsId="user-list"
        filters={[
          { name: 'userName', label: t('user.userName') },
          { name: 'roleId', label: t('user.role'), options: roles },
          { name: 'status', label: t('user.status'), width: 120, options: [1, 0].map((v) => ({ value: v, label: t(`user.status.${v}`) })) },
        ]}
        toolbar={
          can('auth_user_add') && (
            <Button type="primary" onClick={() => void navigate('/manage/system/user/add')} data-testid="user-add">
              {t('menu.user.add')}
            </Button>
          )
        }
      />
      {actions.passwordDrawer}
    </>
  );
}
