/**
 * History tabs (docs/decisions.md#refused-pages): up to 20 visited /manage pages, home always first, per tab session.
 * They belong to the signed-in user and end with the session.
 */
export const HISTORY_STORAGE_KEY = 'chargeops_history_tabs';
export const HISTORY_MAX = 20;
export const HISTORY_HOME = '/manage/home';

export interface HistoryTab {
  /** the page's identity (tabKeyOf): its path without the optional segments */
  key: string;
  /** full location (pathname + search) to return to */
  path: string;
  /** i18n key of the title */
  name: string;
  /** the object the page shows (a device's SN, a site's name), when it names one */
  subject?: string;
}

export const homeTab: HistoryTab = { key: HISTORY_HOME, path: HISTORY_HOME, name: 'menu.home' };

function withHome(tabs: HistoryTab[]): HistoryTab[] {
  const rest = tabs.filter((t) => t.key !== HISTORY_HOME);
  const home = tabs.find((t) => t.key === HISTORY_HOME) ?? homeTab;
  return [home, ...rest];
}

/**
 * The identity of a page's tab: its route pattern filled with the required params, optional
 * segments (`:type?`, e.g. the device detail's tab) left out. Switching tabs inside a page, by
 * `:type?` or by `?tab=` (the search is never part of the key), thus stays on one history tab,
 * while two devices' details are two tabs. Without a pattern: the pathname.
 */
export function tabKeyOf(pattern: string | undefined, params: Readonly<Record<string, string | undefined>>, pathname: string): string {
  if (!pattern) return pathname;
  const out: string[] = [];
  for (const seg of pattern.split('/')) {
    if (seg.startsWith(':') && seg.endsWith('?')) continue;
    if (seg.startsWith(':')) {
      const v = params[seg.slice(1)];
      if (v === undefined) return pathname;
      out.push(encodeURIComponent(v));
    } else out.push(seg);
  }
  return out.join('/') || '/';
}

/** Adds (or refreshes) a visited page; only /manage pages are kept; the oldest goes past 20. */
export function addTab(tabs: HistoryTab[], tab: HistoryTab): HistoryTab[] {
  let next = withHome(tabs);
  if (!tab.key.startsWith('/manage/')) return next;
  const i = next.findIndex((t) => t.key === tab.key);
  if (i >= 0) next = next.map((t, j) => (j === i ? { ...t, path: tab.path, name: tab.name || t.name, subject: tab.subject ?? t.subject } : t));
  else next = [...next, tab];
  while (next.length > HISTORY_MAX) next = [next[0], ...next.slice(2)];
  return next;
}

/** Closes a tab; home cannot be closed. */
export function removeTab(tabs: HistoryTab[], key: string): HistoryTab[] {
  if (key === HISTORY_HOME) return withHome(tabs);
  return withHome(tabs.filter((t) => t.key !== key));
}

/** What sessionStorage holds: the tabs and the id of the user they belong to. */
interface StoredTabs {
  owner: number;
  tabs: HistoryTab[];
}

/**
 * The stored tabs of `owner` (the signed-in user's id). Tabs of another user, or stored without
 * an owner, are dropped: page titles of one user's screens must not show to the next.
 */
export function loadTabs(owner: number, storage: Storage = sessionStorage): HistoryTab[] {
  try {
    const raw = storage.getItem(HISTORY_STORAGE_KEY);
    if (!raw) return [homeTab];
    const parsed = JSON.parse(raw) as Partial<StoredTabs> | null;
    if (!parsed || parsed.owner !== owner || !Array.isArray(parsed.tabs)) {
      storage.removeItem(HISTORY_STORAGE_KEY);
      return [homeTab];
    }
    return withHome(parsed.tabs.filter((t) => t && typeof t.key === 'string' && typeof t.path === 'string')).slice(0, HISTORY_MAX);
  } catch {
    return [homeTab];
  }
}

export function saveTabs(tabs: HistoryTab[], owner: number, storage: Storage = sessionStorage): void {
  const stored: StoredTabs = { owner, tabs: tabs.slice(0, HISTORY_MAX) };
  storage.setItem(HISTORY_STORAGE_KEY, JSON.stringify(stored));
}

/** Forgets the tabs; called whenever the session ends (logout, 20001-20004: models/session.ts). */
export function clearTabs(storage: Storage = sessionStorage): void {
  try {
    storage.removeItem(HISTORY_STORAGE_KEY);
  } catch {
    /* storage unavailable: nothing kept */
  }
}
