import { describe, expect, it } from 'vitest';
import {
  afterLoginTarget,
  guardRedirect,
  holdsAll,
  holdsByMode,
  landingPath,
  permissionKeys,
  subjectOf,
  HOME_PATH,
  NOAUTH_PATH,
  WELCOME_PATH,
  type PermissionKey,
  type Subject,
} from './access';
import { readFileSync } from 'node:fs';
// @ts-expect-error the generator is a plain node script without types
import { catalogueKeys, OUTPUT, renderPermissionKeys } from '../scripts/gen-permissions.mjs';
import { manageRoutes } from './routes';
import { routeInfoFor, routeKeysFor, walkRoutes } from './routeMatch';

const user = (...auth: string[]): Subject => ({ root: false, auth: new Set(auth) });
const root: Subject = { root: true, auth: new Set() };

describe('PermissionKey (permissions.gen.ts)', () => {
  it('is generated from the catalogue as it is now (npm run gen:api)', () => {
    expect(readFileSync(OUTPUT, 'utf8')).toBe(renderPermissionKeys(catalogueKeys()));
  });

  it('does not take a key the catalogue lacks', () => {
    // @ts-expect-error a typo of auth_site_list is no PermissionKey
    const typo: PermissionKey = 'auth_site_lst';
    const key: PermissionKey = 'auth_site_list';
    expect(permissionKeys.has(typo)).toBe(false);
    expect(permissionKeys.has(key)).toBe(true);
    // @ts-expect-error nor in a group of keys
    expect(holdsAll(root, [['auth_device_detail', 'auth_device_inf']])).toBe(true);
  });
});

describe('route table', () => {
  it('names only keys of the shared catalogue (api/permissions.json)', () => {
    const unknown: string[] = [];
    walkRoutes(manageRoutes, (def) => (def.keys ?? []).flat().forEach((k) => !permissionKeys.has(k) && unknown.push(k)));
    expect(unknown).toEqual([]);
  });

  it('covers every key of docs/architecture.md#permissions that guards a screen', () => {
    const used = new Set<string>();
    walkRoutes(manageRoutes, (_, info) => info.keys.flat().forEach((k) => used.add(k)));
    for (const k of ['auth_home', 'auth_my', 'auth_site_detail', 'auth_device_add', 'auth_role_authData', 'auth_dict_group',
      'auth_deviceModel_alias', 'auth_logs_error', 'auth_customer_detail', 'auth_user_authData', 'auth_docs_category_manage',
      'auth_message_setting', 'auth_application_edit', 'auth_openapi_app', 'auth_attach_tree', 'auth_system_dashboard',
      'auth_menu', 'auth_black_device']) {
      expect(used.has(k), k).toBe(true);
    }
  });

  it('gives each path its inherited keys', () => {
    expect(routeKeysFor('/manage/site/update/12')).toEqual(['auth_site', 'auth_site_edit']);
    expect(routeKeysFor('/manage/system/dashboard')).toEqual(['auth_system', 'auth_system_dashboard']);
    expect(routeKeysFor('/manage/system/menu')).toEqual(['auth_system', 'auth_menu']);
    expect(routeKeysFor('/manage/system/logs/action/login')).toEqual(['auth_system', 'auth_logs', 'auth_logs_action']);
    expect(routeKeysFor('/manage/device/all/detail/5/config')).toEqual(['auth_device', ['auth_device_detail', 'auth_device_info']]);
    expect(routeKeysFor('/manage/device/detail/5')).toEqual(['auth_device', ['auth_device_detail', 'auth_device_info']]);
    expect(routeKeysFor('/manage/system/device-model')).toEqual(['auth_system', 'auth_deviceModel']);
    expect(routeKeysFor('/manage/system/device-model-alias')).toEqual(['auth_system', 'auth_deviceModel', 'auth_deviceModel_alias']);
    expect(routeKeysFor('/manage/welcome')).toEqual([]);
    expect(routeKeysFor('/manage/noauth')).toEqual([]);
    expect(routeKeysFor('/manage/no/such/page')).toBeNull();
    expect(routeInfoFor('/manage/home')?.home).toBe(true);
    expect(routeInfoFor('/manage/welcome')?.noLoading).toBe(true);
    expect(routeInfoFor('/manage/noauth')?.noLoading).toBe(true);
  });
});

describe('holdsAll / holdsByMode', () => {
  it('needs every key; root bypasses; no subject holds nothing', () => {
    expect(holdsAll(user('auth_site_list', 'auth_site_add'), ['auth_site_list', 'auth_site_add'])).toBe(true);
    expect(holdsAll(user('auth_site_list'), ['auth_site_list', 'auth_site_add'])).toBe(false);
    expect(holdsAll(root, ['auth_menu'])).toBe(true);
    expect(holdsAll(null, [])).toBe(false);
  });

  it('element directive modes any (default), all, none', () => {
    expect(holdsByMode(user('auth_site_list'), ['auth_site_list', 'auth_site_add'])).toBe(true);
    expect(holdsByMode(user('auth_site_list'), ['auth_site_list', 'auth_site_add'], 'all')).toBe(false);
    expect(holdsByMode(user('auth_site_edit'), ['auth_site_list', 'auth_site_add'], 'none')).toBe(true);
    expect(holdsByMode(user('auth_site_list', 'auth_site_edit'), ['auth_site_list', 'auth_site_add'], 'none')).toBe(false);
    // root holds every key: "none" content is not for root
    expect(holdsByMode(root, ['auth_site_list'], 'none')).toBe(false);
    expect(holdsByMode(root, ['auth_site_list'], 'all')).toBe(true);
    expect(holdsByMode(null, ['auth_site_list'], 'none')).toBe(false);
  });

  it('subjectOf reads user.root and role.auth', () => {
    const s = subjectOf({ user: { root: false }, role: { auth: ['auth_home'] } });
    expect(s?.root).toBe(false);
    expect(s?.auth.has('auth_home')).toBe(true);
    expect(subjectOf(null)).toBeNull();
  });
});

describe('after login (docs/decisions.md#route-keys)', () => {
  it('/login and / go home with auth_home or as root, else welcome', () => {
    for (const p of ['/login', '/', '', null, '/login?x=1']) {
      expect(afterLoginTarget(p, user('auth_home'), routeKeysFor)).toBe(HOME_PATH);
      expect(afterLoginTarget(p, root, routeKeysFor)).toBe(HOME_PATH);
      expect(afterLoginTarget(p, user('auth_site'), routeKeysFor)).toBe(WELCOME_PATH);
    }
    expect(landingPath(user())).toBe(WELCOME_PATH);
  });

  it('any other path is kept when all its keys are held, else welcome', () => {
    const siteUser = user('auth_site', 'auth_site_list');
    expect(afterLoginTarget('/manage/site/list?page=2', siteUser, routeKeysFor)).toBe('/manage/site/list?page=2');
    expect(afterLoginTarget('/manage/site/add', siteUser, routeKeysFor)).toBe(WELCOME_PATH);
    expect(afterLoginTarget('/manage/system/dashboard', user('auth_system_dashboard'), routeKeysFor)).toBe(WELCOME_PATH);
    expect(afterLoginTarget('/manage/system/dashboard', root, routeKeysFor)).toBe('/manage/system/dashboard');
    expect(afterLoginTarget('/manage/welcome', user(), routeKeysFor)).toBe('/manage/welcome');
  });
});

describe('route guard (docs/decisions.md#route-keys)', () => {
  it('allows held routes, sends others to noauth and the home page to welcome', () => {
    expect(guardRedirect(user('auth_site', 'auth_site_list'), ['auth_site', 'auth_site_list'])).toBeNull();
    expect(guardRedirect(user('auth_site'), ['auth_site', 'auth_site_list'])).toBe(NOAUTH_PATH);
    expect(guardRedirect(user(), ['auth_home'], true)).toBe(WELCOME_PATH);
    expect(guardRedirect(user(), [])).toBeNull(); // noauth, welcome need nothing
  });

  it('root bypasses every check', () => {
    walkRoutes(manageRoutes, (_, info) => expect(guardRedirect(root, info.keys, info.home)).toBeNull());
  });

  it('without a session: /login', () => {
    expect(guardRedirect(null, [])).toBe('/login');
  });
});
