/** Path → route lookups over the route table, without rendering anything. */
import { matchRoutes, type RouteObject } from 'react-router';
import { manageRoutes } from './routes';
import type { KeyRequirement } from './access';
import { joinPath, MANAGE_BASE, type RouteDef } from './utils/routeDef';

export interface RouteInfo {
  /** Absolute path pattern, e.g. /manage/site/update/:id */
  pattern: string;
  name?: string;
  keys: KeyRequirement[];
  home: boolean;
  noLoading: boolean;
  /** Shows its trail above the page (RouteDef.breadcrumb). */
  breadcrumb?: boolean;
}

/** What the guards, tabs and breadcrumb need of a route. */
export function infoOf(def: RouteDef, pattern: string, keys: KeyRequirement[]): RouteInfo {
  return { pattern, name: def.name, keys, home: !!def.home, noLoading: !!def.noLoading, breadcrumb: !!def.breadcrumb };
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
    visit(def, infoOf(def, pattern, keys));
    if (def.children) walkRoutes(def.children, visit, pattern, keys);
  }
}

function toMatchObjects(defs: RouteDef[], parentPath: string, parentKeys: KeyRequirement[]): RouteObject[] {
  return defs.map((def) => {
    const pattern = joinPath(parentPath, def.path);
    const keys = [...parentKeys, ...(def.keys ?? [])];
    const info = infoOf(def, pattern, keys);
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

/** One step of a breadcrumb: the i18n key of its name and the path it opens. */
export interface Crumb {
  name: string;
  path: string;
}

/** The trail of matched routes (outermost first): each named route once, at its own pattern. */
export function trailOf(infos: readonly (RouteInfo | undefined)[]): Crumb[] {
  const out: Crumb[] = [];
  for (const info of infos) {
    if (!info?.name || out.some((c) => c.path === info.pattern)) continue;
    out.push({ name: info.name, path: info.pattern });
  }
  return out;
}

/**
 * The breadcrumb of matched routes (issue 30 item 15, "where am I"): every page below a menu
 * group shows its trail ("System / Users"); a top-level page (home) shows none unless its route
 * asks for one (RouteDef.breadcrumb).
 */
export function crumbsOf(infos: readonly (RouteInfo | undefined)[]): Crumb[] {
  const trail = trailOf(infos);
  return trail.length >= 2 || infos[infos.length - 1]?.breadcrumb ? trail : [];
}

/** The breadcrumb of a /manage path (crumbsOf). */
export function breadcrumbFor(pathname: string): Crumb[] {
  const m = matchRoutes(matchTree, pathname);
  return crumbsOf((m ?? []).map((x) => x.route.handle as RouteInfo | undefined));
}
