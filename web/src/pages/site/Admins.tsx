/** The administrators of a site (site/admins) and whether each gets the site's alarm mail. */
import { Card, Tag } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../components/access';
import { siteAdmins, type SiteAdmin } from '../../services/stats';
import QueryTable from '../../components/QueryTable';
import { siteKeys } from '../../services/site';

export default function SiteAdmins({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const q = useQuery({ queryKey: siteKeys.admins(siteId), queryFn: () => siteAdmins(siteId), retry: false });
  const columns: ColumnsType<SiteAdmin> = [
    {
      title: t('stats.admin.userName'),
      dataIndex: 'userName',
      key: 'userName',
      render: (v: string, r) => (can('auth_user_detail') ? <Link to={`/manage/system/user/detail/${r.id}`}>{v}</Link> : v),
    },
    { title: t('stats.admin.nickName'), dataIndex: 'nickName', key: 'nickName', render: (v: string) => v || '-' },
    { title: t('stats.admin.email'), dataIndex: 'email', key: 'email', render: (v: string) => v || '-' },
    { title: t('stats.admin.role'), dataIndex: 'roleName', key: 'roleName', render: (v: string) => v || '-' },
    {
      title: t('stats.admin.receiver'),
      dataIndex: 'receiver',
      key: 'receiver',
      render: (v: boolean) =>
        v ? (
          <Tag color="blue" icon={<CheckOutlined />} data-testid="site-admin-receiver">
            {t('stats.admin.receiver')}
          </Tag>
        ) : (
          '-'
        ),
    },
  ];
  return (
    <Card title={t('stats.site.admins')} data-testid="site-admins" style={{ marginBottom: 16 }}>
      <QueryTable<SiteAdmin> query={q} rowKey="id" size="small" columns={columns} dataSource={q.data?.list ?? []} pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }} scroll={{ x: 'max-content' }} />
    </Card>
  );
}
