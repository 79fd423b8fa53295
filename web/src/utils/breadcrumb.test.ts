import { describe, expect, it } from 'vitest';
import { breadcrumbFor } from './routeMatch';

describe('breadcrumb', () => {
  it('the device blacklist (system/list) shows System › Device blacklist', () => {
    expect(breadcrumbFor('/manage/system/list')).toEqual([
      { name: 'menu.system', path: '/manage/system' },
      { name: 'menu.blacklist', path: '/manage/system/list' },
    ]);
  });
  it('pages whose route does not ask for one show none', () => {
    expect(breadcrumbFor('/manage/system/menu')).toEqual([]);
    expect(breadcrumbFor('/manage/device/list')).toEqual([]);
  });
});
