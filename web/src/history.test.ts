// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { clearSession } from './models/session';
import { matchPath } from 'react-router';
import { addTab, clearTabs, homeTab, loadTabs, removeTab, saveTabs, tabKeyOf, HISTORY_MAX, HISTORY_STORAGE_KEY, type HistoryTab } from './utils/history';
import { routeInfoFor } from './routeMatch';

const tab = (i: number): HistoryTab => ({ key: `/manage/p${i}`, path: `/manage/p${i}?q=${i}`, name: `n${i}` });

describe('history tabs', () => {
  it('keeps home first even when visited later or never', () => {
    let tabs = addTab([], tab(1));
    expect(tabs.map((t) => t.key)).toEqual(['/manage/home', '/manage/p1']);
    tabs = addTab(tabs, { key: '/manage/home', path: '/manage/home', name: 'menu.home' });
    expect(tabs.map((t) => t.key)).toEqual(['/manage/home', '/manage/p1']);
  });

  it('keeps at most 20, dropping the oldest non-home page', () => {
    let tabs: HistoryTab[] = [];
    for (let i = 1; i <= 25; i++) tabs = addTab(tabs, tab(i));
    expect(tabs).toHaveLength(HISTORY_MAX);
    expect(tabs[0].key).toBe('/manage/home');
    expect(tabs[1].key).toBe('/manage/p7');
    expect(tabs[19].key).toBe('/manage/p25');
  });

  it('revisiting updates the stored location instead of adding a tab', () => {
    let tabs = addTab(addTab([], tab(1)), tab(2));
    tabs = addTab(tabs, { ...tab(1), path: '/manage/p1?page=3' });
    expect(tabs.map((t) => t.key)).toEqual(['/manage/home', '/manage/p1', '/manage/p2']);
    expect(tabs[1].path).toBe('/manage/p1?page=3');
  });

  it('only /manage pages are kept', () => {
    expect(addTab([], { key: '/login', path: '/login', name: '' })).toEqual([homeTab]);
  });

  it('tabs close, except home', () => {
    const tabs = addTab(addTab([], tab(1)), tab(2));
    expect(removeTab(tabs, '/manage/p1').map((t) => t.key)).toEqual(['/manage/home', '/manage/p2']);
    expect(removeTab(tabs, '/manage/home').map((t) => t.key)).toEqual(['/manage/home', '/manage/p1', '/manage/p2']);
  });

  it('are kept in sessionStorage with their owner', () => {
    const tabs = addTab(addTab([], tab(1)), tab(2));
    saveTabs(tabs, 7);
    expect(JSON.parse(sessionStorage.getItem(HISTORY_STORAGE_KEY) ?? '{}')).toEqual({ owner: 7, tabs });
    expect(loadTabs(7)).toEqual(tabs);
    sessionStorage.setItem(HISTORY_STORAGE_KEY, 'not json');
    expect(loadTabs(7)).toEqual([homeTab]);
    sessionStorage.setItem(HISTORY_STORAGE_KEY, JSON.stringify({ owner: 7, tabs: [tab(3)] }));
    expect(loadTabs(7).map((t) => t.key)).toEqual(['/manage/home', '/manage/p3']);
  });
});

describe('history tabs end with the session', () => {
  const stored = () => sessionStorage.getItem(HISTORY_STORAGE_KEY);
  beforeEach(() => sessionStorage.clear());

  it("another user's tabs are dropped, not shown", () => {
    saveTabs(addTab([], tab(1)), 7);
    expect(loadTabs(8)).toEqual([homeTab]);
    expect(stored()).toBeNull();
    // the owner's tabs are gone too: they were dropped, not hidden
    expect(loadTabs(7)).toEqual([homeTab]);
  });

  it('tabs stored without an owner (an older console) are dropped', () => {
    sessionStorage.setItem(HISTORY_STORAGE_KEY, JSON.stringify([tab(1)]));
    expect(loadTabs(7)).toEqual([homeTab]);
    sessionStorage.setItem(HISTORY_STORAGE_KEY, JSON.stringify({ tabs: [tab(1)] }));
    expect(loadTabs(7)).toEqual([homeTab]);
    sessionStorage.setItem(HISTORY_STORAGE_KEY, 'null');
    expect(loadTabs(7)).toEqual([homeTab]);
  });

  it('clearTabs forgets them', () => {
    saveTabs(addTab([], tab(1)), 7);
    clearTabs();
    expect(stored()).toBeNull();
    expect(loadTabs(7)).toEqual([homeTab]);
  });

  it('clearing the session (logout, 20001-20004) clears them', () => {
    saveTabs(addTab([], tab(1)), 7);
    clearSession();
    expect(stored()).toBeNull();
  });
});

describe('one history tab per page', () => {
  // what HistoryTabs does on each navigation: the route that answers the path, its params
  const visit = (tabs: HistoryTab[], location: string): HistoryTab[] => {
    const [pathname] = location.split('?');
    const info = routeInfoFor(pathname);
    const params = info ? (matchPath(info.pattern, pathname)?.params ?? {}) : {};
    return addTab(tabs, { key: tabKeyOf(info?.pattern, params, pathname), path: location, name: info?.name ?? '' });
  };

  it("switching the device detail's tabs (:type?) keeps one tab, back to the last one", () => {
    let tabs = [homeTab];
    for (const p of ['/manage/device/detail/7', '/manage/device/detail/7/alarm', '/manage/device/detail/7/config', '/manage/device/list/detail/7/status']) {
      tabs = visit(tabs, p);
    }
    expect(tabs.map((t) => t.key)).toEqual(['/manage/home', '/manage/device/detail/7']);
    expect(tabs[1]).toMatchObject({ path: '/manage/device/list/detail/7/status', name: 'menu.device.detail' });
  });

  it('?tab= is never part of the key; two devices are two tabs', () => {
    let tabs = visit([homeTab], '/manage/site/detail/3?tab=devices');
    tabs = visit(tabs, '/manage/site/detail/3?tab=info');
    tabs = visit(tabs, '/manage/device/detail/7/alarm');
    tabs = visit(tabs, '/manage/device/detail/8/alarm');
    expect(tabs.map((t) => t.key)).toEqual(['/manage/home', '/manage/site/detail/3', '/manage/device/detail/7', '/manage/device/detail/8']);
    expect(tabs[1].path).toBe('/manage/site/detail/3?tab=info');
  });

  it('the action log types (:type?/:id?) are one page', () => {
    const tabs = visit(visit([homeTab], '/manage/system/logs/action/login'), '/manage/system/logs/action/operation');
    expect(tabs.map((t) => t.key)).toEqual(['/manage/home', '/manage/system/logs/action']);
  });

  it('without a route pattern the pathname is the key', () => {
    expect(tabKeyOf(undefined, {}, '/manage/unknown/x')).toBe('/manage/unknown/x');
    expect(tabKeyOf('/manage/site/detail/:id', {}, '/manage/site/detail/3')).toBe('/manage/site/detail/3');
  });
});
