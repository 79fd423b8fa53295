/**
 * The shape of a console route (the table itself is ../routes.tsx, which imports this): what the
 * sidebar (menu.ts), the prefetch and the route lookups (../routeMatch.ts) read of a route,
 * without importing the table.
 */
import type { ComponentType } from 'react';
import type { KeyRequirement } from '../access';

export const MANAGE_BASE = '/manage';

/** What a page module exports: the page, and optionally the data it should start loading early. */
export interface PageModule {
  default: ComponentType;
  /** Starts the page's first queries for this URL while its route is still resolving. */
  prefetch?: (url: URL) => void;
}

export type PageLoader = () => Promise<PageModule>;

export interface RouteDef {
  /** Path segment relative to the parent ('' = pathless grouping, used for the menu only). */
  path: string;
  /** i18n key of the title (menu, tabs, breadcrumb). */
  name?: string;
  /** Permission keys this route adds to its ancestors' (a group of keys: any one of them). */
  keys?: KeyRequirement[];
  /** Absolute path the route's index redirects to. */
  redirect?: string;
  page?: PageLoader;
  icon?: string;
  /** Not in the sidebar (add/update/detail screens, docs, message, ...). */
  hideInMenu?: boolean;
  /** Itself hidden from the menu but its children shown, as a sidebar group. */
  flatMenu?: boolean;
  /** Sidebar group: 1 = home, 2 = system items. */
  group?: 1 | 2;
  /** Menu link when it differs from the route path (optional params). */
  menuPath?: string;
  /** The home page: without permission it goes to /manage/welcome instead of /manage/noauth. */
  home?: boolean;
  /** No page-loading indicator while its chunk loads (noauth, welcome). */
  noLoading?: boolean;
  /** The page shows its trail (its ancestors' names and its own) above it (components/RouteBreadcrumb.tsx). */
  breadcrumb?: boolean;
  children?: RouteDef[];
}

export function joinPath(parent: string, child: string): string {
  if (!child) return parent;
  if (child.startsWith('/')) return child;
  return `${parent.replace(/\/+$/, '')}/${child}`;
}
