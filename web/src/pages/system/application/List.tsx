/** system/application/list — applications (docs/applications.md#rules): name/status filters; enable/disable, rotate secret, delete. */
import { Button, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage from '../../../components/ListPage';
import ObjectImage from '../../../components/ObjectImage';
import { useCan } from '../../../components/access';
import { useListState } from '../../../hooks/useListState';
import { registerTexts } from '../../../locales/domains';
import { applicationTexts } from '../../../locales/domains/application';
import { APP_ENABLED, appKeys, listApps, type App } from '../../../services/application';
import { formatTime } from '../../../utils/time';
import { useAppActions } from './hooks/useAppActions';
import { AppStatus } from './components/AppStatus';

registerTexts(applicationTexts);

const SPEC = { name: 'string', status: 'number' } as const;

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
