/** Menu and interface management (system/menu). */
import { get, post } from './request';
import type { ApiInterface, MenuNode, PageResult } from './typings';

export type MenuInput = Pick<MenuNode, 'key' | 'parentKey' | 'nameEn' | 'nameZh' | 'sort' | 'url' | 'hidden'>;
export type InterfaceInput = Omit<ApiInterface, 'id'> & { id: number };
export const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];

/** Query keys beside their service: roots to refresh, factories for one query. */
export const menuKeys = {
  tree: ['menu/tree'] as const,
  interfaces: ['interface/list'] as const,
  interfacesOf: (key: string) => ['interface/list', key] as const,
};

export const menuTree = () => get<MenuNode[]>('/api/auth/sys/menu/tree');
export const addMenu = (m: MenuInput) => post<null>('/api/auth/sys/menu/add', m);
export const updateMenu = (m: MenuInput) => post<null>('/api/auth/sys/menu/update', m);
export const deleteMenu = (key: string) => post<null>('/api/auth/sys/menu/delete', { key });
export const listInterfaces = (q: Record<string, unknown>) => post<PageResult<ApiInterface>>('/api/auth/sys/interface/list', q);
export const saveInterface = (i: InterfaceInput) => post<{ id: number }>('/api/auth/sys/interface/save', i);
export const deleteInterfaces = (ids: number[]) => post<null>('/api/auth/sys/interface/delete', { ids });
