/** Query keys of the device calls (services/device.ts, which re-exports them): roots to refresh, factories for one query. */
export const deviceKeys = {
  /** Every device list page: the device list and a site's devices (patched by the status stream). */
  lists: ['dev/basic/list'] as const,
  /** A page of the device list. */
  page: (q: object) => ['dev/basic/list', q] as const,
  /** A site's devices (ListPage adds the page's query). */
  ofSite: (siteId: number) => ['dev/basic/list', 'site', siteId] as const,
  /** A site's devices of one category (0: every category; ListPage adds the page's query). */
  ofSiteCategory: (siteId: number, category: number) => ['dev/basic/list', 'site', siteId, 'category', category] as const,
  counts: ['dev/basic/status/count'] as const,
  count: (f: object) => ['dev/basic/status/count', f] as const,
  details: ['device'] as const,
  detail: (id: number) => ['device', id] as const,
  pendingBanner: ['dev/pending/list', 'banner'] as const,
  issuePicker: (keyword: string) => ['issue/devices', keyword] as const,
};
