/**
 * Sidebar built from the route table (spec §2): only routes whose effective keys are all held;
 * hidden routes dropped; a `flatMenu` parent (System) becomes a group of its children;
 * group 1 (home) first, then the level-1 areas, then group 2 (system items).
 */
import { holdsAll, type Subject } from '../access';
import { MANAGE_BASE, type RouteDef } from '../routes';
import { joinPath } from './routeMatch';

export interface MenuNode {
  kind: 'item' | 'submenu' | 'group';
  /** Unique key: the link for items, the route path for submenus and groups. */
  key: string;
  /** i18n key of the label. */
  name: string;
  icon?: string;
  /** Link (items only). */
  path?: string;
  children?: MenuNode[];
}

/** Link of a route: optional params dropped; null when a required param remains. */
export function menuLink(pattern: string): string | null {
  const parts = pattern.split('/').filter((s) => !(s.startsWith(':') && s.endsWith('?')));
  if (parts.some((s) => s.startsWith(':'))) return null;
  return parts.join('/') || '/';
}

function findByPattern(defs: RouteDef[], target: string, parentPath: string, parentKeys: string[]): string[] | null {
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

function build(defs: RouteDef[], subject: Subject | null, parentPath: string, parentKeys: string[]): MenuNode[] {
  const out: MenuNode[] = [];
  for (const def of defs) {
    if (def.hideInMenu) continue;
    const pattern = joinPath(parentPath, def.path);
    const keys = [...parentKeys, ...(def.keys ?? [])];
    if (!holdsAll(subject, keys)) continue;
    const children = def.children ? build(def.children, subject, pattern, keys) : [];
    const name = def.name ?? pattern;
    if (def.flatMenu) {
      if (children.length) out.push({ kind: 'group', key: `group:${pattern}`, name, children });
      continue;
    }
    if (children.length) {
      out.push({ kind: 'submenu', key: `sub:${pattern}`, name, icon: def.icon, children });
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
    if (link) out.push({ kind: 'item', key: link, name, icon: def.icon, path: link });
  }
  return out;
}

/** The sidebar for a subject, from the /manage routes. */
export function buildMenu(defs: RouteDef[], subject: Subject | null, base = MANAGE_BASE): MenuNode[] {
  const groupOf = new Map<string, 1 | 2 | undefined>();
  for (const d of defs) groupOf.set(d.name ?? d.path, d.group);
  const nodes = build(defs, subject, base, []);
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
  result.push(...level1, ...group2);
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
