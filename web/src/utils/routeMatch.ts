/** Path → route lookups over the route table, without rendering anything. */
import { matchRoutes, type RouteObject } from 'react-router';
import { MANAGE_BASE, manageRoutes, type RouteDef } from '../routes';
import type { KeyRequirement } from '../access';

export interface RouteInfo {
  /** Absolute path pattern, e.g. /manage/site/update/:id */
  pattern: string;
  name?: string;
  keys: KeyRequirement[];
  home: boolean;
  noLoading: boolean;
}

export function joinPath(parent: string, child: string): string {
  if (!child) return parent;
  if (child.startsWith('/')) return child;
  return `${parent.replace(/\/+$/, '')}/${child}`;
}

/** Walks the table with the effective (inherited + own) keys of each route. */
export function walkRoutes(
  defs: RouteDef[],
  visit: (def: RouteDef, info: RouteInfo) => void,
  parentPath = MANAGE_BASE,
  parentKeys: KeyRequirement[] = [],
): void {
  for (const def of defs) {
    const pattern = joinPath(parentPath, def.path);
    const keys = [...parentKeys, ...(def.keys ?? [])];
    visit(def, { pattern, name: def.name, keys, home: !!def.home, noLoading: !!def.noLoading });
    if (def.children) walkRoutes(def.children, visit, pattern, keys);
  }
}

function toMatchObjects(defs: RouteDef[], parentPath: string, parentKeys: KeyRequirement[]): RouteObject[] {
  return defs.map((def) => {
    const pattern = joinPath(parentPath, def.path);
    const keys = [...parentKeys, ...(def.keys ?? [])];
    const info: RouteInfo = { pattern, name: def.name, keys, home: !!def.home, noLoading: !!def.noLoading };
    const children: RouteObject[] = [];
    if (def.redirect) children.push({ index: true, handle: info });
    if (def.children) children.push(...toMatchObjects(def.children, pattern, keys));
    return { path: def.path || undefined, handle: info, children: children.length ? children : undefined };
  });
}

const matchTree: RouteObject[] = [
  {
    path: MANAGE_BASE,
    handle: { pattern: MANAGE_BASE, keys: [], home: false, noLoading: false } satisfies RouteInfo,
    children: [{ index: true, handle: { pattern: MANAGE_BASE, keys: [], home: false, noLoading: false } }, ...toMatchObjects(manageRoutes, MANAGE_BASE, [])],
  },
];

/** The route that answers a /manage path, or null. */
export function routeInfoFor(pathname: string): RouteInfo | null {
  const m = matchRoutes(matchTree, pathname);
  if (!m || m.length === 0) return null;
  return (m[m.length - 1].route.handle as RouteInfo) ?? null;
}

/** Effective keys of a path; null when no /manage route matches. */
export function routeKeysFor(pathname: string): KeyRequirement[] | null {
  return routeInfoFor(pathname)?.keys ?? null;
}
