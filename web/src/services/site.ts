/** Sites (spec §3). */
import { get, post } from './request';
import type { Option, PageResult, Site, SiteOverview } from './typings';

export type SiteInput = Pick<Site, 'customerId' | 'name' | 'code' | 'contactPerson' | 'contactPhone' | 'buildDate' | 'address' | 'image' | 'receivers'> & {
  id?: number;
};
export const SITE_ENABLED = 1;
export const SITE_DISABLED = 0;

const base = '/api/auth/sys/site';
export const listSites = (q: Record<string, unknown>) => post<PageResult<Site>>(`${base}/list`, q);
export const getSite = (id: number) => get<Site>(`${base}/detail`, { id });
export const siteOverview = (id: number) => get<SiteOverview>(`${base}/overview`, { id });
export const addSite = (s: SiteInput) => post<{ id: number }>(`${base}/add`, s);
export const updateSite = (s: SiteInput) => post<null>(`${base}/update`, s);
export const setSiteStatus = (ids: number[], status: number) => post<null>(`${base}/status`, { ids, status });
export const deleteSites = (ids: number[]) => post<null>(`${base}/delete`, { ids });
export const siteOptions = (customerId?: number) => get<(Option & { customerId: number })[]>(`${base}/options`, customerId ? { customerId } : undefined);
