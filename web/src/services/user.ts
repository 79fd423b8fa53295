/** Users (docs/decisions.md#permissions-and-data-scope, docs/api.md#passwords-on-the-wire): passwords are sealed like the login (docs/api.md). */
import { get, post } from './request';
import { encryptorFor } from './crypto';
import { getLoginKey } from './auth';
import type { PageResult, User } from './typings';

export interface UserInput {
  id?: number;
  userName?: string;
  nickName: string;
  email: string;
  contact: string;
  roleId: number;
  customerId: number;
  maxSites: number;
}
export const USER_ENABLED = 1;
export const USER_DISABLED = 0;

/** Query keys beside their service: roots to refresh, factories for one query. */
export const userKeys = {
  list: ['user/list'] as const,
  /** A customer's users (customer detail). */
  ofCustomer: (customerId: number) => ['user/list', { customerId }] as const,
  /** The users a site's alarm mail may go to (site form). */
  receivers: ['user/list', 'receivers'] as const,
  details: ['user'] as const,
  detail: (id: number) => ['user', id] as const,
};

const base = '/api/auth/sys/user';
export const listUsers = (q: Record<string, unknown>) => post<PageResult<User>>(`${base}/list`, q);
export const getUser = (id: number) => get<User>(`${base}/detail`, { id });
export async function addUser(u: UserInput, password: string) {
  const enc = await encryptorFor(await getLoginKey());
  return post<{ id: number }>(`${base}/add`, { ...u, keyId: enc.keyId, password: await enc.set(password) });
}
export const updateUser = (u: UserInput) => post<null>(`${base}/update`, u);
export const setUserStatus = (ids: number[], status: number) => post<null>(`${base}/status`, { ids, status });
export async function setUserPassword(id: number, password: string) {
  const enc = await encryptorFor(await getLoginKey());
  return post<null>(`${base}/password`, { id, keyId: enc.keyId, password: await enc.set(password) });
}
export const assignUser = (id: number, customerIds: number[], siteIds: number[]) => post<null>(`${base}/assign`, { id, customerIds, siteIds });
