import { beforeEach, describe, expect, it } from 'vitest';
import { clearSession } from '../models/session';
import { addTab, clearTabs, homeTab, loadTabs, removeTab, saveTabs, HISTORY_MAX, HISTORY_STORAGE_KEY, type HistoryTab } from './history';

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
