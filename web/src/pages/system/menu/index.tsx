/** system/menu — menu tree (sort, URL) and each menu's interfaces (name, method, URL, common flag). */
import { useMemo, useState } from 'react';
import { Button, Card, Checkbox, Col, Empty, Form, Input, Row, Select, Space, Tag, Tooltip, Tree, Typography, type TreeDataNode } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import FormDrawer, { useDrawer } from '../../../components/FormDrawer';
import { useActions } from '../../../hooks/useActions';
import { deleteInterfaces, deleteMenu, listInterfaces, menuTree, METHODS, saveInterface, type InterfaceInput, menuKeys } from '../../../services/menu';
import type { ApiInterface, MenuNode } from '../../../services/typings';
import { currentLocale } from '../../../i18n';
import MenuForm, { type MenuRow } from './components/MenuForm';
import QueryTable from '../../../components/QueryTable';


function flatten(nodes: MenuNode[] | null, out: MenuNode[] = []): MenuNode[] {
  for (const n of nodes ?? []) {
    out.push(n);
    flatten(n.children, out);
  }
  return out;
}

export default function MenuPage() {
  const { t } = useTranslation();
  const tree = useQuery({ queryKey: menuKeys.tree, queryFn: menuTree });
  const [selected, setSelected] = useState<string>('');
  const menuDrawer = useDrawer<MenuRow>();
  const ifaceDrawer = useDrawer<ApiInterface>();
  const { run, confirm } = useActions();
  const zh = currentLocale() === 'zh-CN';
  const all = useMemo(() => flatten(tree.data ?? []), [tree.data]);
  const current = all.find((m) => m.key === selected);
  const label = (m: MenuNode) => (zh ? m.nameZh : m.nameEn) || m.key;
  const toTree = (nodes: MenuNode[] | null): TreeDataNode[] =>
    (nodes ?? []).map((n) => ({
      key: n.key,
      title: (
        <span>
          <span data-testid={`menu-node-${n.key}`}>{label(n)}</span> <Typography.Text type="secondary">({n.sort})</Typography.Text> {n.interfaceCount > 0 && <Tag>{n.interfaceCount}</Tag>}
          {n.hidden && <Tag data-testid={`menu-hidden-${n.key}`}>{t('menuMgmt.hiddenTag')}</Tag>}
        </span>
      ),
      children: n.children?.length ? toTree(n.children) : undefined,
    }));
  const ifaces = useQuery({
    queryKey: menuKeys.interfacesOf(selected),
    queryFn: () => listInterfaces({ key: selected, page: 1, pageSize: 100 }),
    enabled: !!selected,
  });
  const ifaceCols: ColumnsType<ApiInterface> = [
    { title: t('iface.name'), dataIndex: 'name', key: 'name' },
    { title: t('iface.method'), dataIndex: 'method', key: 'method', width: 80 },
    { title: t('iface.url'), dataIndex: 'url', key: 'url' },
    { title: t('iface.common'), dataIndex: 'common', key: 'common', render: (v: boolean) => (v ? <Tag color="blue">{t('com_yes')}</Tag> : '-') },
    {
      title: t('com_actions'),
      key: 'actions',
      render: (_: unknown, r) =>
        r.locked ? (
          <Tooltip title={t('iface.lockedHint')}>
            <Tag data-testid={`iface-locked-${r.id}`}>{t('iface.locked')}</Tag>
          </Tooltip>
        ) : (
        <Space>
          <a onClick={() => ifaceDrawer.edit(r)}>{t('com_edit')}</a>
          <a onClick={() => confirm(() => deleteInterfaces([r.id]), { title: t('com_confirm_delete', { name: r.url }), danger: true, invalidate: [menuKeys.interfaces, menuKeys.tree] })}>
            {t('com_delete')}
          </a>
        </Space>
        ),
    },
  ];
  const menuOptions = all.map((m) => ({ value: m.key, label: `${label(m)} (${m.key})` }));
  return (
    <div data-testid="menu-page">
      <Row gutter={16}>
        <Col xs={24} lg={10}>
          <Card
            title={t('menuMgmt.menus')}
            loading={tree.isPending}
            extra={
              <Button type="primary" size="small" onClick={() => menuDrawer.edit({ isNew: true, parentKey: selected })}>
                {t('menuMgmt.add')}
              </Button>
            }
          >
            <Tree treeData={toTree(tree.data ?? [])} defaultExpandAll selectedKeys={selected ? [selected] : []} onSelect={(k) => setSelected(k.length ? String(k[0]) : '')} />
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          {current ? (
            <Space direction="vertical" style={{ width: '100%' }}>
              <Card
                title={`${label(current)} · ${current.key}`}
                extra={
                  <Space>
                    <Button size="small" data-testid="menu-edit" onClick={() => menuDrawer.edit(current)}>
                      {t('com_edit')}
                    </Button>
                    {!current.builtIn && (
                      <Button
                        size="small"
                        danger
                        onClick={() =>
                          confirm(() => deleteMenu(current.key), {
                            title: t('com_confirm_delete', { name: label(current) }),
                            content: t('menuMgmt.deleteHint'),
                            danger: true,
                            invalidate: [menuKeys.tree],
                            onDone: () => setSelected(''),
                          })
                        }
                      >
                        {t('com_delete')}
                      </Button>
                    )}
                  </Space>
                }
              >
                <Typography.Text type="secondary">
                  {t('menuMgmt.url')}: {current.url || '-'} · {t('menuMgmt.sort')}: {current.sort} · {current.builtIn ? t('menuMgmt.builtIn') : t('menuMgmt.custom')}
                </Typography.Text>
              </Card>
              <Card
                title={t('role.interfaces')}
                extra={
                  <Button size="small" type="primary" onClick={ifaceDrawer.add}>
                    {t('iface.add')}
                  </Button>
                }
              >
                <QueryTable<ApiInterface> query={ifaces} rowKey="id" size="small" loading={ifaces.isFetching} pagination={false} columns={ifaceCols} dataSource={ifaces.data?.list ?? []} />
              </Card>
            </Space>
          ) : (
            <Card>
              <Empty description={t('role.selectMenu')} />
            </Card>
          )}
        </Col>
      </Row>
      <MenuForm row={menuDrawer.row} options={menuOptions} invalidate={[menuKeys.tree]} onClose={menuDrawer.close} />
      <FormDrawer<InterfaceInput>
        open={ifaceDrawer.open}
        title={ifaceDrawer.row?.id ? t('iface.edit') : t('iface.add')}
        initialValues={ifaceDrawer.row?.id ? ifaceDrawer.row : { method: 'POST', common: false, keys: selected ? [selected] : [] }}
        onClose={ifaceDrawer.close}
        onSubmit={(v) => run(() => saveInterface({ ...v, id: ifaceDrawer.row?.id ?? 0, common: !!v.common, keys: v.keys ?? [] }), { invalidate: [menuKeys.interfaces, menuKeys.tree] })}
      >
        <Form.Item name="name" label={t('iface.name')} rules={[{ required: true, whitespace: true, message: t('com_value_required') }, { max: 100 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="method" label={t('iface.method')} rules={[{ required: true }]}>
          <Select options={METHODS.map((m) => ({ value: m, label: m }))} />
        </Form.Item>
        <Form.Item name="url" label={t('iface.url')} rules={[{ required: true, message: t('com_value_required') }, { pattern: /^\/api\//, message: t('iface.urlRule') }]}>
          <Input />
        </Form.Item>
        <Form.Item name="keys" label={t('iface.keys')}>
          <Select mode="multiple" optionFilterProp="label" options={menuOptions} />
        </Form.Item>
        <Form.Item name="common" valuePropName="checked">
          <Checkbox>{t('iface.common')}</Checkbox>
        </Form.Item>
      </FormDrawer>
    </div>
  );
}
