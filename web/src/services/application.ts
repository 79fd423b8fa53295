/**
 * Applications (issue 13; docs/applications.md): list, add, update, detail, enable/disable,
 * delete, secret rotation, and the bound-user select. The secret comes only in the answers of
 * add and rotate. Types from the generated OpenAPI types.
 */
import { get, post } from './request';
import type { ApiBody, ApiData } from './typings';

export type AppPage = ApiData<'/api/auth/sys/application/list', 'post'>;
export type App = NonNullable<AppPage['list'][number]>;
export type AppInput = ApiBody<'/api/auth/sys/application/add', 'post'>;
export type AppListInput = ApiBody<'/api/auth/sys/application/list', 'post'>;
export type AppMade = ApiData<'/api/auth/sys/application/add', 'post'>;
export type AppUserOption = ApiData<'/api/auth/sys/application/user/options', 'post'>[number];

export const APP_ENABLED = 1;
export const APP_DISABLED = 0;
/** Query keys beside their service: roots to refresh, factories for one query. */
export const appKeys = {
  list: ['application/list'] as const,
  details: ['application'] as const,
  detail: (id: number) => ['application', id] as const,
  userOptions: (search: string) => ['application/user/options', search] as const,
};

const base = '/api/auth/sys/application';

export const listApps = (q: AppListInput) => post<AppPage>(`${base}/list`, q);
export const getApp = (id: number) => get<App>(`${base}/detail`, { id });
export const addApp = (a: AppInput) => post<AppMade>(`${base}/add`, a);
export const updateApp = (a: AppInput & { id: number }) => post<null>(`${base}/update`, a);
export const setAppStatus = (ids: number[], status: number) => post<null>(`${base}/status`, { ids, status });
export const deleteApps = (ids: number[]) => post<null>(`${base}/delete`, { ids });
export const rotateAppSecret = (id: number) => post<AppMade>(`${base}/secret/rotate`, { id });
export const appUserOptions = (name = '') => post<AppUserOption[]>(`${base}/user/options`, { name });
