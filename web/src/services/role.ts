/** Roles: list, menu authorisation (permission keys) and data authorisation. */
import { get, post } from './request';
import type { ApiInterface, PageResult, PermissionNode, Role } from './typings';

export type RoleData = Pick<
  Role,
  | 'customerAccess'
  | 'siteAccess'
  | 'webSshAccess'
  | 'webSshLevel'
  | 'cfgReadLevel'
  | 'cfgWriteLevel'
  | 'cfgDownloadLevel'
  | 'paramLevel'
  | 'docLevel'
  | 'attachLevel'
  | 'emailAlarm'
  | 'userAccess'
>;
export const CUSTOMER_ACCESS = [0, 1, 2];
export const SITE_ACCESS = [0, 1];
export const WEB_SSH_ACCESS = [0, 1, 2, 3];
export const LEVEL_FIELDS = ['webSshLevel', 'cfgReadLevel', 'cfgWriteLevel', 'cfgDownloadLevel', 'paramLevel', 'docLevel', 'attachLevel'] as const;

/** Query keys beside their service: roots to refresh, factories for one query. */
export const roleKeys = {
  list: ['role/list'] as const,
  details: ['role'] as const,
  detail: (id: number) => ['role', id] as const,
  all: ['role/all'] as const,
  permissionTree: ['permission/tree'] as const,
};

const base = '/api/auth/sys/role';
export const listRoles = (q: Record<string, unknown>) => post<PageResult<Role>>(`${base}/list`, q);
export const allRoles = async () => (await listRoles({ page: 1, pageSize: 100 })).list;
export const getRole = (id: number) => get<Role>(`${base}/detail`, { id });
export const addRole = (r: { name: string; description: string }) => post<{ id: number }>(`${base}/add`, r);
export const updateRole = (r: { id: number; name: string; description: string }) => post<null>(`${base}/update`, r);
export const deleteRoles = (ids: number[]) => post<null>(`${base}/delete`, { ids });
export const setRoleMenu = (id: number, keys: string[]) => post<null>(`${base}/auth/menu`, { id, keys });
export const setRoleData = (id: number, d: RoleData) => post<null>(`${base}/auth/data`, { id, ...d });
export const permissionTree = () => get<PermissionNode[]>('/api/auth/sys/permission/tree');
export const interfacesOf = (key: string) => post<PageResult<ApiInterface>>('/api/auth/sys/interface/list', { key, page: 1, pageSize: 100 });
