/** Data model catalogue: groups and data items (config-model screens). */
import { post } from './request';
import type { DataGroup, DataItem, PageResult } from './typings';

export type GroupInput = Pick<DataGroup, 'name' | 'nameZh' | 'description' | 'descriptionZh'> & { id?: number };
export type DataItemInput = Pick<DataItem, 'groupId' | 'name' | 'labelEn' | 'labelZh' | 'category' | 'dataType' | 'dataRange' | 'unit'> & { id?: number };

/** Query keys beside their service: roots to refresh, factories for one query. */
export const catalogueKeys = {
  /** The group list (config model screen). */
  groups: ['dict/group'] as const,
  allGroups: ['dict/group/all'] as const,
  items: ['dict/item/list'] as const,
  allItems: ['dict/item/all'] as const,
  units: ['dict/item/units'] as const,
};

const base = '/api/auth/sys/dict';
export const listGroups = (q: Record<string, unknown>) => post<PageResult<DataGroup>>(`${base}/group/list`, q);
export const allGroups = async () => (await listGroups({ page: 1, pageSize: 100 })).list;
export const addGroup = (g: GroupInput) => post<{ id: number }>(`${base}/group/add`, g);
export const updateGroup = (g: GroupInput) => post<null>(`${base}/group/update`, g);
export const deleteGroups = (ids: number[]) => post<null>(`${base}/group/delete`, { ids });
export const listDataItems = (q: Record<string, unknown>) => post<PageResult<DataItem>>(`${base}/item/list`, q);
export const addDataItem = (it: DataItemInput) => post<{ id: number }>(`${base}/item/add`, it);
export const updateDataItem = (it: DataItemInput) => post<null>(`${base}/item/update`, it);
export const deleteDataItems = (ids: number[]) => post<null>(`${base}/item/delete`, { ids });
