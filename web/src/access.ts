/**
 * Permission checks and route guards (docs/decisions.md#route-keys, docs/architecture.md#permissions), as pure functions.
 * The key catalogue is ../api/permissions.json, shared with the Go server.
 */
import catalogue from '@api/permissions.json';
import type { PermissionKey } from './permissions.gen';

export type { PermissionKey };

export interface PermissionDef {
  key: PermissionKey;
  parent: string;
  type: 'menu' | 'action' | string;
  name: Record<string, string>;
  sort: number;
}

// the generated union (permissions.gen.ts) is made from this same file
export const permissions = catalogue.permissions as readonly PermissionDef[];
export const permissionKeys: ReadonlySet<string> = new Set(permissions.map((p) => p.key));
/**
 * One requirement of a route: a key, or a group of keys of which any one is enough (a page the
 * server's interfaces open to several keys, docs/decisions.md#route-keys).
 */
export type KeyRequirement = PermissionKey | readonly PermissionKey[];

/**
 * Pages the server opens to any one of several keys (docs/decisions.md#route-keys): the route,
 * its links and the server's interfaces name the same group.
 */
/** system/user/auth/:id, "Customers and sites" of a user (POST /api/auth/sys/user/assign). */
export const USER_ASSIGN_KEYS = ['auth_user_authData', 'auth_user_customerStationList'] as const satisfies readonly PermissionKey[];
/** The device page, read (GET /api/auth/sys/dev/basic/detail and the device's reads). */
export const DEVICE_READ_KEYS = ['auth_device_detail', 'auth_device_info'] as const satisfies readonly PermissionKey[];

export const HOME_PATH = '/manage/home';
export const WELCOME_PATH = '/manage/welcome';
export const NOAUTH_PATH = '/manage/noauth';
export const LOGIN_PATH = '/login';
export const HOME_KEY: PermissionKey = 'auth_home';

/** Who is asking: the root flag and the keys of the role (role.auth). */
export interface Subject {
  root: boolean;
  /** As the server sent them (a key it knows and the console does not is kept, never checked). */
  auth: ReadonlySet<string>;
}

export function subjectOf(
  session: { user?: { root?: boolean } | null; role?: { auth?: readonly string[] | null } | null } | null | undefined,
): Subject | null {
  if (!session) return null;
  return { root: !!session.user?.root, auth: new Set(session.role?.auth ?? []) };
}

/** Root bypasses every check; others must hold every key (of a group of keys, any one). */
export function holdsAll(subject: Subject | null, keys: readonly KeyRequirement[] | undefined): boolean {
  if (!subject) return false;
  if (subject.root) return true;
  return (keys ?? []).every((k) => (typeof k === 'string' ? subject.auth.has(k) : k.some((one) => subject.auth.has(one))));
}

export type DirectiveMode = 'any' | 'all' | 'none';

/**
 * Element directive of docs/decisions.md#route-keys, modes any (default: holds one of the keys), all (holds every
 * key) and none (holds none of the keys). Root holds every key: it passes any and all, and
 * content for "none" (e.g. a hint for users lacking a key) is not shown to root, unless the
 * list is empty.
 */
export function holdsByMode(subject: Subject | null, keys: readonly PermissionKey[], mode: DirectiveMode = 'any'): boolean {
  if (!subject) return false;
  if (subject.root) return mode !== 'none' || keys.length === 0;
  if (mode === 'all') return keys.every((k) => subject.auth.has(k));
  if (mode === 'none') return !keys.some((k) => subject.auth.has(k));
  return keys.some((k) => subject.auth.has(k));
}

/** The landing page: home for root or holders of auth_home, else welcome. */
export function landingPath(subject: Subject | null): string {
  return holdsAll(subject, [HOME_KEY]) ? HOME_PATH : WELCOME_PATH;
}

function pathnameOf(path: string): string {
  const cut = path.search(/[?#]/);
  const p = cut >= 0 ? path.slice(0, cut) : path;
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

/**
 * Where a signed-in user goes when they open `path` (or come back to it after login):
 * /login and / go to the landing page; any other path is kept if all its route's keys are held,
 * otherwise /manage/welcome. `keysOf` answers a path's effective keys, or null when no route
 * matches (such a path is kept: the not-found page answers it).
 */
export function afterLoginTarget(
  path: string | null | undefined,
  subject: Subject | null,
  keysOf: (pathname: string) => readonly KeyRequirement[] | null,
): string {
  const p = pathnameOf(path || '/');
  if (p === '' || p === '/' || p === LOGIN_PATH) return landingPath(subject);
  const keys = keysOf(p);
  if (keys === null) return path as string;
  return holdsAll(subject, keys) ? (path as string) : WELCOME_PATH;
}

/**
 * Guard of one /manage route: null when allowed, else where to go:
 * the home page without permission goes to /manage/welcome, any other route to /manage/noauth
 * (which the route guard shows in place, at the refused page's address: components/guards.tsx).
 */
export function guardRedirect(subject: Subject | null, keys: readonly KeyRequirement[], isHome = false): string | null {
  if (!subject) return LOGIN_PATH;
  if (holdsAll(subject, keys)) return null;
  return isHome ? WELCOME_PATH : NOAUTH_PATH;
}

/** Localised name of a permission key from the catalogue. */
export function permissionName(key: string, locale: string): string {
  const p = permissions.find((x) => x.key === key);
  return p?.name[locale] ?? p?.name['en-US'] ?? key;
}
