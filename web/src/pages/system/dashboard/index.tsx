/** System dashboard: the overview (Overview.tsx); root-only tabs: locked accounts (unlock) and the mail outbox. */
import { useState } from 'react';
import { App, Button, Popconfirm, Tabs, Typography } from 'antd';
import { useQuery, useQueryClient, keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listLockedUsers, listOutbox, unlockUsers, systemKeys } from '../../../services/system';
import { useSession } from '../../../models/session';
import { formatTime } from '../../../utils/time';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_OPTIONS } from '../../../utils/paging';
import SystemOverview from './Overview';
import QueryTable from '../../../components/QueryTable';

function usePaging() {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE_DEFAULT);
  return { page, pageSize, setPage, setPageSize };
}

function LockedAccounts() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const p = usePaging();
  const q = useQuery({
    queryKey: systemKeys.lockedPage(p.page, p.pageSize),
    queryFn: () => listLockedUsers(p.page, p.pageSize),
    placeholderData: keepPreviousData,
  });
  const unlock = async (id: number) => {
    try {
      await unlockUsers([id]);
      void message.success(t('dashboard.unlocked'));
      await qc.invalidateQueries({ queryKey: systemKeys.locked });
    } catch {
      /* toast shown by the request layer */
    }
  };
  return (
    <div data-testid="locked-accounts">
    <QueryTable
      query={q}
      rowKey="id"
      loading={q.isFetching}
      dataSource={q.data?.list ?? []}
      columns={[
        { title: t('dashboard.userName'), dataIndex: 'userName' },
        { title: t('dashboard.failedLogins'), dataIndex: 'failedLogins' },
        { title: t('dashboard.lockedUntil'), dataIndex: 'lockedUntil', render: (v: number) => formatTime(v) },
        {
          title: t('com_actions'),
          key: 'actions',
          render: (_: unknown, r: { id: number }) => (
            <Popconfirm title={t('dashboard.unlockConfirm')} onConfirm={() => unlock(r.id)} okText={t('com_ok')} cancelText={t('com_cancel')}>
              <Button size="small" data-testid={`unlock-${r.id}`}>
                {t('dashboard.unlock')}
              </Button>
            </Popconfirm>
          ),
        },
      ]}
      pagination={pagination(p, q.data?.total)}
    />
    </div>
  );
}

/** The pagination of a table paged by usePaging. */
function pagination(p: ReturnType<typeof usePaging>, total: number | undefined) {
  return {
    current: p.page,
    pageSize: p.pageSize,
    total: total ?? 0,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
    onChange: (pg: number, ps: number) => {
      p.setPage(pg);
      p.setPageSize(ps);
    },
  };
}

function Outbox() {
  const { t } = useTranslation();
  const p = usePaging();
  const q = useQuery({
    queryKey: systemKeys.outbox(p.page, p.pageSize),
    queryFn: () => listOutbox(p.page, p.pageSize),
    placeholderData: keepPreviousData,
  });
  return (
    <div data-testid="mail-outbox">
    <QueryTable
      query={q}
      rowKey="id"
      loading={q.isFetching}
      dataSource={q.data?.list ?? []}
      expandable={{
        expandedRowRender: (r: { body: string }) => (
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }} copyable>
            {r.body}
          </Typography.Paragraph>
        ),
      }}
      columns={[
        { title: t('dashboard.mailTo'), dataIndex: 'to' },
        { title: t('dashboard.mailSubject'), dataIndex: 'subject' },
        { title: t('dashboard.mailTime'), dataIndex: 'createdAt', render: (v: number) => formatTime(v) },
      ]}
      pagination={pagination(p, q.data?.total)}
    />
    </div>
  );
}

export default function SystemDashboard() {
  const { t } = useTranslation();
  const { subject } = useSession();
  const items = [{ key: 'overview', label: t('dashboard.overview'), children: <SystemOverview /> }];
  if (subject?.root) {
    items.push(
      { key: 'locked', label: t('dashboard.locked'), children: <LockedAccounts /> },
      { key: 'outbox', label: t('dashboard.outbox'), children: <Outbox /> },
    );
  }
  return (
    <div data-testid="system-dashboard">
      <Tabs items={items} />
    </div>
  );
}
