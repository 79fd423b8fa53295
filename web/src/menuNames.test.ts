/**
 * Menu management (system/menu, role menu authorisation) names the menus from the catalogue
 * (api/permissions.json); the sidebar names them from the locale files (route `name`). A menu
 * must read the same on both screens, in both languages: the sidebar treats a stored name equal
 * to the catalogue's as "not renamed", so a catalogue name that differs from the sidebar's label
 * would show one name in menu management and another in the sidebar.
 */
import { describe, expect, it } from 'vitest';
import enUS from './locales/en-US';
import zhCN from './locales/zh-CN';
import { permissions, type PermissionDef, type PermissionKey } from './access';
import { manageRoutes, type RouteDef } from './routes';
import { buildMenu, type MenuNode } from './utils/menu';

const locales: Record<string, Record<string, string>> = { 'en-US': enUS, 'zh-CN': zhCN };
const menuPerms = new Map<string, PermissionDef>(permissions.filter((p) => p.type === 'menu').map((p) => [p.key, p]));

/** Every route that stands for a menu key (its own keys name a menu of the catalogue). */
function menuRoutes(defs: RouteDef[], out: { key: string; name: string }[] = []): { key: string; name: string }[] {
  for (const d of defs) {
    const key = d.keys?.find((k): k is PermissionKey => typeof k === 'string' && menuPerms.has(k));
    if (key && d.name) out.push({ key, name: d.name });
    if (d.children) menuRoutes(d.children, out);
  }
  return out;
}

function flat(nodes: MenuNode[]): MenuNode[] {
  return nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);
}

describe('menu names: menu management and the sidebar', () => {
  const routes = menuRoutes(manageRoutes);

  it('every menu key of the catalogue has a route (and so a sidebar label)', () => {
    const covered = new Set(routes.map((r) => r.key));
    expect([...menuPerms.keys()].filter((k) => !covered.has(k))).toEqual([]);
  });

  for (const locale of Object.keys(locales)) {
    it(`${locale}: the catalogue's name of every menu is the sidebar's label`, () => {
      const t = locales[locale];
      const diff = routes
        .map((r) => ({ key: r.key, catalogue: menuPerms.get(r.key)?.name[locale], sidebar: t[r.name] }))
        .filter((d) => d.catalogue !== d.sidebar);
      expect(diff).toEqual([]);
    });

    it(`${locale}: every sidebar node with a menu key shows the catalogue's name`, () => {
      const t = locales[locale];
      const nodes = flat(buildMenu(manageRoutes, { root: true, auth: new Set() })).filter((n) => n.menuKey);
      expect(nodes.length).toBeGreaterThan(10);
      for (const n of nodes) {
        expect({ key: n.menuKey, label: n.label ?? t[n.name] }).toEqual({ key: n.menuKey, label: menuPerms.get(n.menuKey as string)?.name[locale] });
      }
    });
  }
});
