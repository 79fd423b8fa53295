import { describe, expect, it } from 'vitest';
import { breadcrumbFor } from './routeMatch';

describe('breadcrumb', () => {
  it('the device blacklist (system/list) shows System › Device blacklist', () => {
    expect(breadcrumbFor('/manage/system/list')).toEqual([
      { name: 'menu.system', path: '/manage/system' },
      { name: 'menu.blacklist', path: '/manage/system/list' },
    ]);
  });
  it('every page below a menu group shows its trail, with the menu names', () => {
    expect(breadcrumbFor('/manage/system/menu').map((c) => c.name)).toEqual(['menu.system', 'menu.menu']);
    expect(breadcrumbFor('/manage/device/list').map((c) => c.name)).toEqual(['menu.device', 'menu.device.list']);
    expect(breadcrumbFor('/manage/device/detail/7').map((c) => c.name)).toEqual(['menu.device', 'menu.device.detail']);
  });
  it('a top-level page shows none', () => {
    expect(breadcrumbFor('/manage/home')).toEqual([]);
  });
});
