/**
 * Sidebar built from the route table (docs/decisions.md#route-keys): only routes whose effective keys are all held;
 * hidden routes dropped; a `flatMenu` parent (System) becomes a group of its children;
 * group 1 (home) first, then the level-1 areas, then group 2 (system items).
 *
 * Menu management (system/menu) reaches the sidebar through the caller's menus in the session
 * (`role.menus`, the permission table as the menu screen left it):
 * - a menu marked hidden is not shown (its pages stay open to holders of its keys: the route
 *   guards check keys, never menus);
 * - a renamed menu shows its stored name in the current language (a name equal to the
 *   catalogue's means "not renamed" and the console's own translation is shown);
 * - siblings follow the stored sort;
 * - an administrator's own menus (not in the catalogue) are links to their URL (http(s): a new
 *   window) under their parent when that parent is a submenu or group, else at the top level.
 * Built-in menus keep their place in the route table: their parent and URL come from the routes.
 */
import { holdsAll, permissions, type KeyRequirement, type PermissionDef, type PermissionKey, type Subject } from '../access';
import type { SessionInfo } from '../services/typings';
import { joinPath, MANAGE_BASE, type PageLoader, type RouteDef } from './routeDef';

/** One menu of the caller as menu management left it (session info, role.menus). */
export type ServerMenu = SessionInfo['role']['menus'][number];

/** The caller's menus and the language to name them in. */
export interface MenuSource {
  menus: readonly ServerMenu[];
  locale: string;
}

export interface MenuNode {
  kind: 'item' | 'submenu' | 'group';
  /** Unique key: the link for items, the route path for submenus and groups. */
  key: string;
  /** i18n key of the label. */
  name: string;
  /** Label as menu management named it; shown instead of t(name). */
  label?: string;
  icon?: string;
  /** Link (items only). */
  path?: string;
  /** The link leaves the console (opened in a new window). */
  external?: boolean;
  /** The menu permission key this node stands for. */
  menuKey?: string;
  /** Sort from menu management. */
  sort?: number;
  children?: MenuNode[];
  /** The page's chunk loader (items of the route table), for prefetching (utils/prefetch.ts). */
  page?: PageLoader;
}

// keyed by any string: the server's menus include an administrator's own
const menuType = new Map<string, PermissionDef>(permissions.map((p) => [p.key, p]));

interface Ctx {
  subject: Subject | null;
  byKey: Map<string, ServerMenu> | null;
  locale: string;
}

function storedName(m: ServerMenu, locale: string): string {
  return (locale === 'zh-CN' ? m.nameZh : m.nameEn) || m.nameEn || m.nameZh;
}

/** The stored name when it differs from the catalogue's (a rename), else undefined. */
function renamed(m: ServerMenu | undefined, locale: string): string | undefined {
  if (!m) return undefined;
  const own = storedName(m, locale);
  const def = menuType.get(m.key)?.name[locale];
  return own && own !== def ? own : undefined;
}

/** Stable sort by stored sort, only when every sibling has one. */
function ordered(nodes: MenuNode[]): MenuNode[] {
  if (nodes.some((n) => n.sort === undefined)) return nodes;
  return nodes.map((n, i) => ({ n, i })).sort((a, b) => (a.n.sort as number) - (b.n.sort as number) || a.i - b.i).map((x) => x.n);
}

/** An administrator's own menus under `parent`: submenus of their own menus, or links. */
function customNodes(parent: string, ctx: Ctx): MenuNode[] {
  const out: MenuNode[] = [];
  for (const m of ctx.byKey?.values() ?? []) {
    if (m.builtIn || m.hidden || m.parentKey !== parent) continue;
    const label = storedName(m, ctx.locale);
    const children = customNodes(m.key, ctx);
    if (children.length) {
      out.push({ kind: 'submenu', key: `sub:${m.key}`, name: '', label, menuKey: m.key, sort: m.sort, children: ordered(children) });
    } else if (m.url) {
      const external = /^https?:\/\//i.test(m.url);
      out.push({ kind: 'item', key: external ? `ext:${m.key}` : m.url, name: '', label, menuKey: m.key, sort: m.sort, path: m.url, external });
    }
  }
  return out;
}

/** Link of a route: optional params dropped; null when a required param remains. */
export function menuLink(pattern: string): string | null {
  const parts = pattern.split('/').filter((s) => !(s.startsWith(':') && s.endsWith('?')));
  if (parts.some((s) => s.startsWith(':'))) return null;
  return parts.join('/') || '/';
}

function findByPattern(defs: RouteDef[], target: string, parentPath: string, parentKeys: KeyRequirement[]): KeyRequirement[] | null {
  for (const d of defs) {
    const pattern = joinPath(parentPath, d.path);
    const keys = [...parentKeys, ...(d.keys ?? [])];
    if (d.page && menuLink(pattern) === target) return keys;
    if (d.children) {
      const k = findByPattern(d.children, target, pattern, keys);
      if (k) return k;
    }
  }
  return null;
}

function build(defs: RouteDef[], ctx: Ctx, parentPath: string, parentKeys: KeyRequirement[]): MenuNode[] {
  const { subject } = ctx;
  const out: MenuNode[] = [];
  for (const def of defs) {
    if (def.hideInMenu) continue;
    const pattern = joinPath(parentPath, def.path);
    const keys = [...parentKeys, ...(def.keys ?? [])];
    if (!holdsAll(subject, keys)) continue;
    const menuKey = def.keys?.find((k): k is PermissionKey => typeof k === 'string' && menuType.get(k)?.type === 'menu');
    const stored = menuKey ? ctx.byKey?.get(menuKey) : undefined;
    if (stored?.hidden) continue;
    const own = { name: def.name ?? pattern, label: renamed(stored, ctx.locale), menuKey, sort: stored?.sort };
    const built = def.children ? build(def.children, ctx, pattern, keys) : [];
    // an administrator's own menus go into a shown container (not into an area shown as one item)
    const children = ordered(menuKey && built.length ? [...built, ...customNodes(menuKey, ctx)] : built);
    if (def.flatMenu) {
      if (children.length) out.push({ kind: 'group', key: `group:${pattern}`, ...own, children });
      continue;
    }
    if (children.length) {
      out.push({ kind: 'submenu', key: `sub:${pattern}`, ...own, icon: def.icon, children });
      continue;
    }
    let link: string | null = null;
    if (def.children && def.redirect) {
      // an area whose screens are all hidden: one item that opens its redirect target,
      // shown only when the target's keys are held too
      const targetKeys = findByPattern(def.children, def.redirect, pattern, keys);
      if (targetKeys && holdsAll(subject, targetKeys)) link = def.redirect;
    } else if (def.page) {
      link = def.menuPath ? joinPath(parentPath, def.menuPath) : menuLink(pattern);
    }
    if (link) out.push({ kind: 'item', key: link, ...own, icon: def.icon, path: link, page: link === def.redirect ? undefined : def.page });
  }
  return out;
}

/** Keys of the menus shown as containers (where an administrator's own menus can go). */
function containerKeys(nodes: MenuNode[], out = new Set<string>()): Set<string> {
  for (const n of nodes) {
    if (n.kind !== 'item' && n.menuKey) out.add(n.menuKey);
    containerKeys(n.children ?? [], out);
  }
  return out;
}

/** An administrator's own menus whose parent is not shown as a container: the top level. */
function strayCustom(nodes: MenuNode[], ctx: Ctx): MenuNode[] {
  const placed = containerKeys(nodes);
  const parents = new Set<string>();
  for (const m of ctx.byKey?.values() ?? []) {
    const parent = m.parentKey ? ctx.byKey?.get(m.parentKey) : undefined;
    const underOwnMenu = parent !== undefined && !parent.builtIn; // placed with that menu
    if (!m.builtIn && m.parentKey && !placed.has(m.parentKey) && !underOwnMenu) parents.add(m.parentKey);
  }
  return [...parents].flatMap((p) => customNodes(p, ctx));
}

/**
 * The sidebar for a subject, from the /manage routes and, when given, the caller's menus as
 * menu management left them (without them: the route table's names and order, nothing hidden).
 */
export function buildMenu(defs: RouteDef[], subject: Subject | null, source?: MenuSource | null, base = MANAGE_BASE): MenuNode[] {
  const groupOf = new Map<string, 1 | 2 | undefined>();
  for (const d of defs) groupOf.set(d.name ?? d.path, d.group);
  const ctx: Ctx = { subject, byKey: source ? new Map(source.menus.map((m) => [m.key, m])) : null, locale: source?.locale ?? '' };
  const built = build(defs, ctx, base, []);
  const nodes = [...built, ...customNodes('', ctx), ...strayCustom(built, ctx)];
  const group1: MenuNode[] = [];
  const level1: MenuNode[] = [];
  const group2: MenuNode[] = [];
  for (const n of nodes) {
    const g = groupOf.get(n.name);
    if (g === 1) group1.push(n);
    else if (g === 2) group2.push(n.kind === 'group' ? n : { kind: 'group', key: `group:${n.key}`, name: n.name, children: [n] });
    else level1.push(n);
  }
  const result: MenuNode[] = [];
  if (group1.length) result.push({ kind: 'group', key: 'group:1', name: '', children: group1 });
  result.push(...ordered(level1), ...group2);
  return result;
}

function isPrefix(prefix: string, pathname: string): boolean {
  return pathname === prefix || pathname.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}

/**
 * The item of the current route (longest link that prefixes the path) and the submenus
 * that lead to it (to open the current route's parent).
 */
export function activeMenu(nodes: MenuNode[], pathname: string): { selected: string | null; openKeys: string[] } {
  let best: { key: string; len: number; chain: string[] } | null = null;
  const visit = (list: MenuNode[], chain: string[]) => {
    for (const n of list) {
      if (n.kind === 'item' && n.path) {
        // an item that opens a redirect target (e.g. /manage/site/list) also covers its area
        const area = n.path.replace(/\/list$/, '');
        for (const p of [n.path, area]) {
          if (isPrefix(p, pathname) && (!best || p.length > best.len)) best = { key: n.key, len: p.length, chain };
        }
      }
      if (n.children) visit(n.children, n.kind === 'submenu' ? [...chain, n.key] : chain);
    }
  };
  visit(nodes, []);
  const b = best as { key: string; len: number; chain: string[] } | null;
  return { selected: b?.key ?? null, openKeys: b?.chain ?? [] };
}
