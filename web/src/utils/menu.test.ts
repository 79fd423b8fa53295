import { describe, expect, it } from 'vitest';
import { activeMenu, buildMenu, menuLink, type MenuNode } from './menu';
import { manageRoutes } from '../routes';
import { permissionKeys, type Subject } from '../access';

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
    expect(all.slice(1, -1).map((n) => n.path)).toEqual(['/manage/site/list', '/manage/device/list', '/manage/attach/list']);
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
