/**
 * A link and the page it opens agree with the server (docs/decisions.md#route-keys): a role the
 * server lets use a page's interfaces is let in by the console's route guard too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardRedirect, holdsByMode, DEVICE_READ_KEYS, USER_ASSIGN_KEYS, type Subject } from './access';
import { routeInfoFor } from './routeMatch';

const doc = JSON.parse(readFileSync(join(__dirname, '../../api/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { 'x-permission-keys'?: string[] }>>;
};
const serverKeys = (method: string, path: string) => doc.paths[path]?.[method]?.['x-permission-keys'] ?? [];
const role = (...auth: string[]): Subject => ({ root: false, auth: new Set(auth) });

/** The demo's "Customer staff" keys that matter here (internal/demo/demo.go). */
const customerStaff = role('auth_system', 'auth_user', 'auth_user_list', 'auth_user_detail', 'auth_user_customerStationList', 'auth_device', 'auth_device_list', 'auth_device_info', 'auth_device_detail');

describe('route keys: links and pages agree', () => {
  it('customer staff: the "Customers and sites" link opens its page (not No access)', () => {
    const info = routeInfoFor('/manage/system/user/auth/7');
    expect(info?.pattern).toBe('/manage/system/user/auth/:id');
    // the link on the user list and detail is shown for USER_ASSIGN_KEYS
    expect(holdsByMode(customerStaff, USER_ASSIGN_KEYS)).toBe(true);
    expect(guardRedirect(customerStaff, info!.keys)).toBeNull();
    // either key alone opens it, the user area's key is still needed
    expect(guardRedirect(role('auth_system', 'auth_user', 'auth_user_authData'), info!.keys)).toBeNull();
    expect(guardRedirect(role('auth_system', 'auth_user'), info!.keys)).toBe('/manage/noauth');
  });

  it('each key of the page is one the server takes for the page\'s save', () => {
    expect([...serverKeys('post', '/api/auth/sys/user/assign')].sort()).toEqual([...USER_ASSIGN_KEYS].sort());
    for (const k of DEVICE_READ_KEYS) expect(serverKeys('get', '/api/auth/sys/dev/basic/detail')).toContain(k);
  });

  it('a role with only auth_device_info (under auth_device) gets the device page', () => {
    const infoOnly = role('auth_device', 'auth_device_info');
    for (const p of ['/manage/device/detail/3', '/manage/device/all/detail/3/config']) {
      expect(guardRedirect(infoOnly, routeInfoFor(p)!.keys), p).toBeNull();
    }
    // still not the screens of other keys
    expect(guardRedirect(infoOnly, routeInfoFor('/manage/device/update/3')!.keys)).toBe('/manage/noauth');
    expect(guardRedirect(role('auth_device'), routeInfoFor('/manage/device/detail/3')!.keys)).toBe('/manage/noauth');
  });
});
