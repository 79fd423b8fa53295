/** system/application/list — applications (spec §2; docs/applications.md): name/status filters; enable/disable, rotate secret, delete. */
import { useState } from 'react';
import { Badge, Button, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage from '../../../components/ListPage';
import ObjectImage from '../../../components/ObjectImage';
import { useCan } from '../../../components/access';
import { useActions } from '../../../hooks/useActions';
import { useListState } from '../../../hooks/useListState';
import { registerTexts } from '../../../locales/domains';
import { applicationTexts } from '../../../locales/domains/application';
import {
  APP_DISABLED,
  APP_ENABLED,
  appKeys,
  deleteApps,
  listApps,
  rotateAppSecret,
  setAppStatus,
  type App,
  type AppMade,
} from '../../../services/application';
import { formatTime } from '../../../utils/time';
import SecretModal from './SecretModal';

registerTexts(applicationTexts);

const SPEC = { name: 'string', status: 'number' } as const;

export function AppStatus({ status }: { status: number }) {
  const { t } = useTranslation();
  return <Badge status={status === APP_ENABLED ? 'success' : 'default'} text={t(`app.status.${status === APP_ENABLED ? 1 : 0}`)} />;
}

/** Enable/disable, delete and rotate (with the one-time secret modal) of an application. */
export function useAppActions(onDeleted?: () => void) {
  const { t } = useTranslation();
  const { confirm } = useActions();
  const [made, setMade] = useState<AppMade | null>(null);
  const toggle = (a: App) => {
    const enable = a.status !== APP_ENABLED;
    confirm(() => setAppStatus([a.id], enable ? APP_ENABLED : APP_DISABLED), {
      title: t(enable ? 'app.confirmEnable' : 'app.confirmDisable', { name: a.name }),
      invalidate: [appKeys.list, appKeys.details],
    });
  };
  const remove = (a: App) =>
    confirm(() => deleteApps([a.id]), {
      title: t('app.confirmDelete', { name: a.name }),
      danger: true,
      success: t('app.deleted'),
      invalidate: [appKeys.list],
      onDone: onDeleted,
    });
  const rotate = (a: App) =>
    confirm(async () => setMade(await rotateAppSecret(a.id)), {
      title: t('app.confirmRotate', { name: a.name }),
      content: t('app.confirmRotateContent'),
      success: false,
      invalidate: [appKeys.list, appKeys.details],
    });
  const secretModal = <SecretModal made={made} onClose={() => setMade(null)} />;
  return { toggle, remove, rotate, secretModal };
}

export default function AppList() {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const list = useListState(SPEC);
  const actions = useAppActions();
  const columns: ColumnsType<App> = [
    { title: t('app.icon'), dataIndex: 'icon', key: 'icon', width: 72, render: (v: string) => (v ? <ObjectImage value={v} height={32} /> : '-') },
    {
      title: t('app.name'),
      dataIndex: 'name',
      key: 'name',
      render: (v: string, r) => (can('auth_application_detail') ? <Link to={`/manage/system/application/detail/${r.id}`}>{v}</Link> : v),
    },
    { title: t('app.appId'), dataIndex: 'appId', key: 'appId' },
    { title: t('app.user'), dataIndex: 'userName', key: 'userName', render: (v: string) => v || '-' },
    { title: t('app.status'), dataIndex: 'status', key: 'status', render: (v: number) => <AppStatus status={v} /> },
    { title: t('app.installedAt'), dataIndex: 'installedAt', key: 'installedAt', render: (v: number) => formatTime(v) },
    {
      title: t('com_actions'),
      key: 'actions',
      fixed: 'right',
      render: (_: unknown, r) =>
        can('auth_application_edit') && (
          <Space>
            <Link to={`/manage/system/application/update/${r.id}`}>{t('com_edit')}</Link>
            <a onClick={() => actions.toggle(r)}>{r.status === APP_ENABLED ? t('com_disable') : t('com_enable')}</a>
            <a onClick={() => actions.rotate(r)} data-testid={`app-rotate-${r.id}`}>
              {t('app.rotate')}
            </a>
            <a onClick={() => actions.remove(r)}>{t('com_delete')}</a>
          </Space>
        ),
    },
  ];
  return (
    <>
      <ListPage<App>
        list={list}
        queryKey={appKeys.list}
        fetcher={listApps}
        columns={columns}
        testId="app-list"
        filters={[
          { name: 'name', label: t('app.name') },
          { name: 'status', label: t('app.status'), width: 120, options: [1, 0].map((v) => ({ value: v, label: t(`app.status.${v}`) })) },
        ]}
        toolbar={
          can('auth_application_add') && (
            <Button type="primary" onClick={() => void navigate('/manage/system/application/add')} data-testid="app-add">
              {t('menu.application.add')}
            </Button>
          )
        }
      />
      {actions.secretModal}
    </>
  );
}
