import { describe, expect, it } from 'vitest';
import { activeMenu, buildMenu, menuLink, type MenuNode, type ServerMenu } from './utils/menu';
import { manageRoutes } from './routes';
import { permissionKeys, permissions, type Subject } from './access';

const user = (...auth: string[]): Subject => ({ root: false, auth: new Set(auth) });
const root: Subject = { root: true, auth: new Set() };

function flat(nodes: MenuNode[]): MenuNode[] {
  return nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);
}
const links = (nodes: MenuNode[]) => flat(nodes).filter((n) => n.kind === 'item').map((n) => n.path);

describe('buildMenu', () => {
  const all = buildMenu(manageRoutes, root);

  it('root sees group 1 (home), level-1 areas, then group 2 (system)', () => {
    expect(all[0]).toMatchObject({ kind: 'group', key: 'group:1' });
    expect(all[0].children?.map((c) => c.path)).toEqual(['/manage/home']);
    expect(all.slice(1, -1).map((n) => n.path)).toEqual(['/manage/site/list', '/manage/device/list', '/manage/session/list', '/manage/token/list', '/manage/issue/list', '/manage/attach/list']);
    const system = all[all.length - 1];
    expect(system).toMatchObject({ kind: 'group', name: 'menu.system' });
    expect(system.children?.slice(0, 6).map((c) => c.name)).toEqual([
      'menu.role',
      'menu.configModel',
      'menu.deviceModel',
      'menu.logs',
      'menu.customer',
      'menu.user',
    ]);
  });

  it('drops hidden routes: docs, message, add/update/detail/logDetail, welcome, noauth, my', () => {
    const l = links(all);
    for (const bad of ['/manage/docs', '/manage/message', '/manage/welcome', '/manage/noauth', '/manage/my']) {
      expect(l.some((x) => x?.startsWith(bad))).toBe(false);
    }
    expect(l.some((x) => /\/(add|update|detail|logDetail)(\/|$)/.test(x ?? ''))).toBe(false);
    expect(l).toContain('/manage/system/logs/action');
    expect(l).toContain('/manage/system/device-model');
    expect(l).toContain('/manage/system/list');
  });

  it('shows only routes whose keys are all held', () => {
    const m = buildMenu(manageRoutes, user('auth_site', 'auth_site_list', 'auth_device', 'auth_system', 'auth_logs', 'auth_logs_error'));
    expect(links(m)).toEqual(['/manage/site/list', '/manage/system/logs/error']);
    expect(m[0].kind).toBe('item'); // no group 1 without auth_home
  });

  it('an area without its list key is not shown; without auth_system no system group', () => {
    const m = buildMenu(manageRoutes, user('auth_home', 'auth_site', 'auth_role', 'auth_role_list'));
    expect(links(m)).toEqual(['/manage/home']);
  });

  it('a user with every key sees what root sees', () => {
    expect(buildMenu(manageRoutes, user(...permissionKeys))).toEqual(all);
  });

  it('nobody sees anything without keys', () => {
    expect(buildMenu(manageRoutes, user())).toEqual([]);
  });
});

describe('activeMenu', () => {
  const all = buildMenu(manageRoutes, root);
  it('opens the parent of the current route', () => {
    expect(activeMenu(all, '/manage/system/logs/protocol')).toEqual({
      selected: '/manage/system/logs/protocol',
      openKeys: ['sub:/manage/system/logs'],
    });
    expect(activeMenu(all, '/manage/system/logs/action/login').openKeys).toEqual(['sub:/manage/system/logs']);
    expect(activeMenu(all, '/manage/system/device-model-alias').openKeys).toEqual(['sub:/manage/system']);
  });
  it('selects the area of a hidden detail screen', () => {
    expect(activeMenu(all, '/manage/site/detail/3').selected).toBe('/manage/site/list');
    expect(activeMenu(all, '/manage/system/user/update/3').selected).toBe('/manage/system/user/list');
  });
});

describe('menuLink', () => {
  it('drops optional params and refuses required ones', () => {
    expect(menuLink('/manage/system/logs/action/:type?/:id?')).toBe('/manage/system/logs/action');
    expect(menuLink('/manage/site/update/:id')).toBeNull();
  });
});

describe('buildMenu from the caller\'s menus (menu management)', () => {
  // what session info answers: the catalogue's menus as the menu screen left them
  const stored = (over: Partial<ServerMenu>[] = []): ServerMenu[] => {
    const base: ServerMenu[] = permissions
      .filter((p) => p.type === 'menu')
      .map((p) => ({ key: p.key, parentKey: p.parent, nameEn: p.name['en-US'], nameZh: p.name['zh-CN'], sort: p.sort, url: '', hidden: false, builtIn: true }));
    for (const o of over) {
      const i = base.findIndex((m) => m.key === o.key);
      if (i >= 0) base[i] = { ...base[i], ...o };
      else base.push({ parentKey: '', nameEn: '', nameZh: '', sort: 0, url: '', hidden: false, builtIn: false, key: '', ...o });
    }
    return base;
  };
  const label = (nodes: MenuNode[], key: string) => flat(nodes).find((n) => n.menuKey === key);

  it('unchanged menus give the same sidebar as the route table', () => {
    type Shape = { key: string; name: string; label?: string; children?: Shape[] };
    const shape = (ns: MenuNode[]): Shape[] => ns.map((n) => ({ key: n.key, name: n.name, label: n.label, children: n.children && shape(n.children) }));
    expect(shape(buildMenu(manageRoutes, root, { menus: stored(), locale: 'en-US' }))).toEqual(shape(buildMenu(manageRoutes, root)));
    expect(flat(buildMenu(manageRoutes, root, { menus: stored(), locale: 'zh-CN' })).some((n) => n.label)).toBe(false);
  });

  it('a renamed menu shows its stored name in the current language; a name left alone keeps the translation', () => {
    const menus = stored([{ key: 'auth_site', nameEn: 'Charging parks' }]);
    expect(label(buildMenu(manageRoutes, root, { menus, locale: 'en-US' }), 'auth_site')?.label).toBe('Charging parks');
    // only English renamed: in Chinese the console's own translation shows
    expect(label(buildMenu(manageRoutes, root, { menus, locale: 'zh-CN' }), 'auth_site')?.label).toBeUndefined();
    const zh = stored([{ key: 'auth_role', nameZh: '角色与权限' }]);
    expect(label(buildMenu(manageRoutes, root, { menus: zh, locale: 'zh-CN' }), 'auth_role')?.label).toBe('角色与权限');
  });

  it('hidden menus are not shown, to root either; their pages stay behind their keys', () => {
    const menus = stored([{ key: 'auth_device', hidden: true }, { key: 'auth_logs', hidden: true }]);
    const m = buildMenu(manageRoutes, root, { menus, locale: 'en-US' });
    expect(links(m)).not.toContain('/manage/device/list');
    expect(links(m).some((l) => l?.startsWith('/manage/system/logs'))).toBe(false);
    expect(links(m)).toContain('/manage/site/list');
  });

  it('siblings follow the stored sort', () => {
    const menus = stored([{ key: 'auth_attach', sort: 1 }, { key: 'auth_user', sort: 0 }]);
    const m = buildMenu(manageRoutes, root, { menus, locale: 'en-US' });
    expect(m.slice(1, -1).map((n) => n.path)).toEqual(['/manage/attach/list', '/manage/site/list', '/manage/device/list', '/manage/session/list', '/manage/token/list', '/manage/issue/list']);
    expect(m[m.length - 1].children?.[0].name).toBe('menu.user');
  });

  it("an administrator's own menus are links under their parent, external ones marked", () => {
    const menus = stored([
      { key: 'ext_grafana', parentKey: 'auth_system', nameEn: 'Grafana', nameZh: '监控', sort: 99, url: 'https://grafana.example.com' },
      { key: 'ext_top', nameEn: 'Wiki', nameZh: '知识库', sort: 25, url: '/manage/docs/home' },
      { key: 'ext_under_item', parentKey: 'auth_site', nameEn: 'Map', nameZh: '地图', sort: 21, url: 'https://map.example.com' },
      { key: 'ext_off', parentKey: 'auth_system', nameEn: 'Off', nameZh: '关', sort: 1, url: 'https://off.example.com', hidden: true },
    ]);
    const m = buildMenu(manageRoutes, root, { menus, locale: 'zh-CN' });
    const system = m[m.length - 1];
    expect(system.children?.at(-1)).toMatchObject({ kind: 'item', key: 'ext:ext_grafana', label: '监控', path: 'https://grafana.example.com', external: true });
    // top level: by sort among the areas; a parent shown as a plain item puts it at the top level
    expect(m.slice(1, -1).map((n) => n.key)).toEqual(['/manage/site/list', 'ext:ext_under_item', '/manage/docs/home', '/manage/device/list', '/manage/session/list', '/manage/token/list', '/manage/issue/list', '/manage/attach/list']);
    expect(flat(m).some((n) => n.menuKey === 'ext_off')).toBe(false);
  });

  it('a user sees only what the route keys allow, whatever the server lists', () => {
    const m = buildMenu(manageRoutes, user('auth_site', 'auth_site_list'), { menus: stored([{ key: 'auth_site', nameEn: 'Parks' }]), locale: 'en-US' });
    expect(links(m)).toEqual(['/manage/site/list']);
    expect(m[0].label).toBe('Parks');
  });
});
