/** system/user/detail/:id */
import { Button, Card, Descriptions, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader, NotFoundResult } from '../../../components/PageHeader';
import { useCan } from '../../../components/access';
import { useSession } from '../../../models/session';
import { USER_ASSIGN_KEYS } from '../../../access';
import { useCustomerOptions, useSiteOptions } from '../../../hooks/useOptions';
import { getUser, USER_ENABLED, userKeys } from '../../../services/user';
import { formatTime } from '../../../utils/time';
import { UserStatus } from './components/UserStatus';
import { useUserActions } from './hooks/useUserActions';

export default function UserDetail() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const can = useCan();
  const navigate = useNavigate();
  const q = useQuery({ queryKey: userKeys.detail(id), queryFn: () => getUser(id), enabled: id > 0, retry: false });
  const customers = useCustomerOptions();
  const sites = useSiteOptions();
  const actions = useUserActions();
  const self = useSession().session?.user.id;
  if (!(id > 0) || q.isError) return <NotFoundResult />;
  const u = q.data;
  const name = (opts: { value: number; label: string }[], v: number) => opts.find((o) => o.value === v)?.label ?? `#${v}`;
  return (
    <div data-testid="user-detail">
      <PageHeader
        back="/manage/system/user/list"
        title={u?.userName ?? ''}
        sub={u && <UserStatus status={u.status} />}
        extra={
          u && (
            <>
              {can(['auth_logs', 'auth_logs_action']) && (
                <Button onClick={() => void navigate(`/manage/system/logs/action/operation/${id}`)} data-testid="user-action-log">
                  {t('menu.logs.action')}
                </Button>
              )}
              {!u.root && (
                <>
                  {can('auth_user_edit') && <Button onClick={() => void navigate(`/manage/system/user/update/${id}`)}>{t('com_edit')}</Button>}
                  {can(USER_ASSIGN_KEYS) && (
                    <Button onClick={() => void navigate(`/manage/system/user/auth/${id}`)}>{t('user.assign')}</Button>
                  )}
                  {can('auth_user_edit') && u.id !== self && <Button onClick={() => actions.toggle(u)}>{u.status === USER_ENABLED ? t('com_disable') : t('com_enable')}</Button>}
                  {can('auth_user_edit') && <Button onClick={() => actions.setPassword(u)}>{t('user.password')}</Button>}
                </>
              )}
            </>
          )
        }
      />
      <Card loading={q.isPending}>
        {u && (
          <Descriptions bordered size="small" column={{ xs: 1, md: 2 }}>
            <Descriptions.Item label={t('user.userName')}>{u.userName}</Descriptions.Item>
            <Descriptions.Item label={t('user.nickName')}>{u.nickName || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('user.email')}>{u.email || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('user.contact')}>{u.contact || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('user.role')}>{u.root ? t('user.root') : u.roleName || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('user.customer')}>{u.customerId ? name(customers, u.customerId) : '-'}</Descriptions.Item>
            <Descriptions.Item label={t('user.maxSites')}>{u.maxSites || t('user.unlimited')}</Descriptions.Item>
            <Descriptions.Item label={t('user.locale')}>{u.locale || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('user.customers')}>{(u.customerIds ?? []).map((c) => <Tag key={c}>{name(customers, c)}</Tag>)}</Descriptions.Item>
            <Descriptions.Item label={t('user.sites')}>{(u.siteIds ?? []).map((s) => <Tag key={s}>{name(sites, s)}</Tag>)}</Descriptions.Item>
            <Descriptions.Item label={t('com_create_time')}>{formatTime(u.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('com_update_time')}>{formatTime(u.updatedAt)}</Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      {actions.passwordDrawer}
    </div>
  );
}
