/**
 * system/role/auth/menu/:RoeId — the role's permission keys as a tree with checkboxes; the
 * selected menu's interfaces are shown read-only. "You cannot grant permissions…" (20013) is a
 * normal refusal and is shown.
 */
import { useEffect, useMemo, useState } from 'react';
import { Button, Card, Col, Empty, Row, Space, Tag, Tree, type TreeDataNode } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader, NotFoundResult } from '../../../components/PageHeader';
import { useActions } from '../../../hooks/useActions';
import { getRole, interfacesOf, permissionTree, setRoleMenu, roleKeys } from '../../../services/role';
import type { ApiInterface, PermissionNode } from '../../../services/typings';
import { currentLocale } from '../../../i18n';
import QueryTable from '../../../components/QueryTable';
import { menuKeys } from '../../../services/menu';

function toTree(nodes: PermissionNode[] | null, locale: string, t: (k: string) => string): TreeDataNode[] {
  return (nodes ?? [])
    .slice()
    .sort((a, b) => a.sort - b.sort)
    .map((n) => ({
      key: n.key,
      title: (
        <span title={n.key}>
          {n.name[locale] ?? n.name['en-US'] ?? n.key}
          {n.type !== 'menu' && <Tag style={{ marginLeft: 4 }}>{t('role.action')}</Tag>}
        </span>
      ),
      children: n.children?.length ? toTree(n.children, locale, t) : undefined,
    }));
}

export default function RoleAuthMenu() {
  const { t, i18n } = useTranslation();
  const id = Number(useParams().RoeId);
  const navigate = useNavigate();
  const role = useQuery({ queryKey: roleKeys.detail(id), queryFn: () => getRole(id), enabled: id > 0, retry: false });
  const tree = useQuery({ queryKey: roleKeys.permissionTree, queryFn: permissionTree, staleTime: 60_000 });
  const [checked, setChecked] = useState<string[]>([]);
  const [selected, setSelected] = useState<string>('');
  const [busy, setBusy] = useState(false);
  const { run } = useActions();
  useEffect(() => {
    if (role.data) setChecked(role.data.keys);
  }, [role.data]);
  const data = useMemo(() => toTree(tree.data ?? [], currentLocale(), t), [tree.data, i18n.language]); // eslint-disable-line react-hooks/exhaustive-deps
  const ifaces = useQuery({ queryKey: menuKeys.interfacesOf(selected), queryFn: () => interfacesOf(selected), enabled: !!selected });
  if (!(id > 0) || role.isError) return <NotFoundResult />;
  const save = async () => {
    setBusy(true);
    await run(() => setRoleMenu(id, checked), { success: t('com_msg_save_success'), invalidate: [roleKeys.list, roleKeys.details] });
    setBusy(false);
  };
  return (
    <div data-testid="role-auth-menu">
      <PageHeader
        back="/manage/system/role/list"
        title={`${t('menu.role.authMenu')} · ${role.data?.name ?? ''}`}
        extra={
          <Space>
            <Button onClick={() => void navigate('/manage/system/role/list')}>{t('com_cancel')}</Button>
            <Button type="primary" loading={busy} onClick={() => void save()} data-testid="role-menu-save">
              {t('com_save')}
            </Button>
          </Space>
        }
      />
      <Row gutter={16}>
        <Col xs={24} lg={12}>
          <Card title={t('role.permissions')} loading={tree.isPending || role.isPending}>
            <Tree
              checkable
              defaultExpandAll
              checkStrictly
              treeData={data}
              checkedKeys={{ checked, halfChecked: [] }}
              onCheck={(k) => setChecked((Array.isArray(k) ? k : k.checked).map(String))}
              onSelect={(k) => setSelected(k.length ? String(k[0]) : '')}
            />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('role.interfaces')}>
            {selected ? (
              <QueryTable<ApiInterface> query={ifaces}
                rowKey="id"
                size="small"
                loading={ifaces.isFetching}
                pagination={false}
                dataSource={ifaces.data?.list ?? []}
                columns={[
                  { title: t('iface.method'), dataIndex: 'method', key: 'method', width: 80 },
                  { title: t('iface.url'), dataIndex: 'url', key: 'url' },
                  { title: t('iface.name'), dataIndex: 'name', key: 'name' },
                ]}
              />
            ) : (
              <Empty description={t('role.selectMenu')} />
            )}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
