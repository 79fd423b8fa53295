/**
 * /manage shell: sidebar from the route table and the caller's menus (utils/menu.ts), header
 * (collapse, unread-message bell, language, user menu), history tabs. The sidebar stays in view on long pages
 * (sticky, scrolling on its own) and the collapse button sits in the header, so it never
 * covers a menu entry.
 */
import { useEffect, useMemo, useState } from 'react';
import { Avatar, Button, Dropdown, Layout, Menu, Space, Tooltip, Typography, type MenuProps } from 'antd';
import { LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, ReadOutlined, UserOutlined } from '@ant-design/icons';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { manageRoutes } from '../routes';
import { activeMenu, buildMenu, type MenuNode } from '../utils/menu';
import { menuPages, prefetchPages } from '../utils/prefetch';
import { clearSession, useAppConfig, useSession } from '../models/session';
import { logout } from '../services/auth';
import { beginSignOut } from '../services/request';
import { useObjectUrl } from '../services/storage';
import { menuIcons } from '../components/icons';
import LanguageSwitch from '../components/LanguageSwitch';
import { deferred } from '../components/deferred';
import RouteBreadcrumb from '../components/RouteBreadcrumb';
import HistoryTabs from '../components/HistoryTabs';
import MessageBell from '../components/MessageBell';
import { holdsAll, type PermissionKey } from '../access';

/** The privacy policy (with its sanitiser) is fetched only for a user who must accept it; until
 * it arrives a mask keeps the console behind it out of reach, as the modal does. */
const PrivacyModal = deferred(
  () => import('../components/PrivacyModal'),
  () => <div data-testid="privacy-pending" style={{ position: 'fixed', inset: 0, zIndex: 1000, background: 'rgba(0, 0, 0, 0.45)' }} />,
);

/** Keys of the notification centre's route: the header's bell is shown to their holders. */
const MESSAGE_KEYS: PermissionKey[] = ['auth_message', 'auth_message_list'];
/** Docs are not in the sidebar (docs/docs-wiki.md#keys): the header's book button opens the docs home. */
const DOCS_KEYS: PermissionKey[] = ['auth_docs', 'auth_docs_home_list_all'];

type Items = NonNullable<MenuProps['items']>;

function toItems(nodes: MenuNode[], t: (k: string) => string): Items {
  return nodes.map((n) => {
    const label = n.label ?? (n.name ? t(n.name) : undefined);
    if (n.kind === 'group') return { type: 'group' as const, key: n.key, label, children: toItems(n.children ?? [], t) };
    if (n.kind === 'submenu') return { key: n.key, label, icon: n.icon ? menuIcons[n.icon] : undefined, children: toItems(n.children ?? [], t) };
    return { key: n.key, label, icon: n.icon ? menuIcons[n.icon] : undefined };
  });
}

function findNode(nodes: MenuNode[], key: string): MenuNode | undefined {
  for (const n of nodes) {
    if (n.key === key) return n;
    const c = findNode(n.children ?? [], key);
    if (c) return c;
  }
  return undefined;
}

const siderStyle = { position: 'sticky', top: 0, height: '100vh' } as const;
/** The sidebar's own scroll box: antd's sider children box is 100% high, so the menu scrolls inside it. */
const sidebarStyle = { height: '100%', overflowY: 'auto', overflowX: 'hidden' } as const;

export default function ManageLayout() {
  const { t, i18n } = useTranslation();
  const { session, subject } = useSession();
  const { config } = useAppConfig();
  const location = useLocation();
  const navigate = useNavigate();
  const [collapsed, setCollapsed] = useState(false);

  const serverMenus = session?.role.menus;
  const menu = useMemo(
    () => buildMenu(manageRoutes, subject, serverMenus ? { menus: serverMenus, locale: i18n.language } : null),
    [subject, serverMenus, i18n.language],
  );
  const items = useMemo(() => toItems(menu, t), [menu, t]);
  // the sidebar's pages load while the browser is idle, so a click waits only for data
  useEffect(() => prefetchPages(menuPages(menu)), [menu]);
  const active = useMemo(() => activeMenu(menu, location.pathname), [menu, location.pathname]);
  const [openKeys, setOpenKeys] = useState<string[]>(active.openKeys);
  useEffect(() => {
    setOpenKeys((prev) => Array.from(new Set([...prev, ...active.openKeys])));
  }, [active.openKeys]);

  const doLogout = async () => {
    beginSignOut();
    try {
      await logout();
    } catch {
      /* shown by the request layer */
    }
    clearSession();
    void navigate('/login', { replace: true });
  };

  const user = session?.user;
  const showBell = holdsAll(subject, MESSAGE_KEYS);
  const showDocs = holdsAll(subject, DOCS_KEYS);
  const avatarUrl = useObjectUrl(user?.avatar).url;
  const userMenu: MenuProps['items'] = [
    { key: 'my', icon: <UserOutlined />, label: <span data-testid="user-menu-my">{t('layout.myProfile')}</span> },
    { key: 'logout', icon: <LogoutOutlined />, label: <span data-testid="user-menu-logout">{t('layout.logout')}</span> },
  ];

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider collapsed={collapsed} trigger={null} width={224} theme="light" style={siderStyle}>
        <div data-testid="sidebar" style={sidebarStyle}>
        <div style={{ height: 56, display: 'flex', alignItems: 'center', justifyContent: 'center', fontWeight: 700, fontSize: 18 }}>
          {collapsed ? 'CO' : t('app.title')}
        </div>
        <Menu
          mode="inline"
          items={items}
          selectedKeys={active.selected ? [active.selected] : []}
          openKeys={collapsed ? undefined : openKeys}
          onOpenChange={(keys) => setOpenKeys(keys as string[])}
          onClick={({ key }) => {
            const node = findNode(menu, key);
            if (node?.external && node.path) window.open(node.path, '_blank', 'noopener,noreferrer');
            else void navigate(key);
          }}
        />
        </div>
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{ background: '#fff', padding: '0 16px', display: 'flex', alignItems: 'center', gap: 16 }}
        >
          <Button
            type="text"
            data-testid="sidebar-collapse"
            aria-label={t(collapsed ? 'layout.expandMenu' : 'layout.collapseMenu')}
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={() => setCollapsed((c) => !c)}
          />
          <div style={{ flex: 1 }} />
          {showDocs && (
            <Tooltip title={t('menu.docs')}>
              <Button type="text" aria-label={t('menu.docs')} icon={<ReadOutlined />} onClick={() => void navigate('/manage/docs/home')} data-testid="header-docs" />
            </Tooltip>
          )}
          {showBell && <MessageBell />}
          {config.showLanguageSwitch && <LanguageSwitch />}
          <Dropdown
            menu={{
              items: userMenu,
              onClick: ({ key }) => (key === 'my' ? void navigate('/manage/my') : void doLogout()),
            }}
          >
            <Space style={{ cursor: 'pointer' }} data-testid="user-menu">
              <Avatar size="small" src={avatarUrl} icon={<UserOutlined />} />
              <Typography.Text>{user?.nickName || user?.userName}</Typography.Text>
            </Space>
          </Dropdown>
        </Layout.Header>
        <HistoryTabs />
        <RouteBreadcrumb />
        <Layout.Content style={{ margin: 16, padding: 16, background: '#fff', borderRadius: 8 }}>
          <Outlet />
        </Layout.Content>
      </Layout>
      {session?.privacy?.needConfirm && <PrivacyModal />}
    </Layout>
  );
}
