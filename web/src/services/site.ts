/** Sites (docs/decisions.md#organisation). */
import { get, post } from './request';
import type { Option, PageResult, Site, SiteOverview } from './typings';

export type SiteInput = Pick<Site, 'customerId' | 'name' | 'code' | 'contactPerson' | 'contactPhone' | 'buildDate' | 'address' | 'image' | 'receivers'> & {
  id?: number;
};
export const SITE_ENABLED = 1;
export const SITE_DISABLED = 0;

/** Query keys beside their service: roots to refresh, factories for one query. */
export const siteKeys = {
  list: ['site/list'] as const,
  /** A customer's sites (customer detail). */
  ofCustomer: (customerId: number) => ['site/list', { customerId, page: 1, pageSize: 100 }] as const,
  details: ['site'] as const,
  detail: (id: number) => ['site', id] as const,
  overview: (id: number) => ['site', id, 'overview'] as const,
  options: ['site/options'] as const,
  optionsOf: (customerId: number) => ['site/options', customerId] as const,
  admins: (id: number) => ['site/admins', id] as const,
  stats: (id: number) => ['site/stats', id] as const,
  statsOf: (id: number, start: number, end: number) => ['site/stats', id, start, end] as const,
};

const base = '/api/auth/sys/site';
export const listSites = (q: Record<string, unknown>) => post<PageResult<Site>>(`${base}/list`, q);
export const getSite = (id: number) => get<Site>(`${base}/detail`, { id });
export const siteOverview = (id: number) => get<SiteOverview>(`${base}/overview`, { id });
export const addSite = (s: SiteInput) => post<{ id: number }>(`${base}/add`, s);
export const updateSite = (s: SiteInput) => post<null>(`${base}/update`, s);
export const setSiteStatus = (ids: number[], status: number) => post<null>(`${base}/status`, { ids, status });
export const deleteSites = (ids: number[]) => post<null>(`${base}/delete`, { ids });
export const siteOptions = (customerId?: number) => get<(Option & { customerId: number })[]>(`${base}/options`, customerId ? { customerId } : undefined);
