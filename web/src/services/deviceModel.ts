/** Device models, their config/param/control items and aliases (docs/decisions.md#device-models). */
import { get, post } from './request';
import type { DeviceModel, ModelAlias, ModelItem, PageResult } from './typings';

export type ModelInput = Pick<DeviceModel, 'name' | 'parentId' | 'deviceType' | 'vendor' | 'supportsSsh' | 'supportsWeb' | 'images' | 'icon'> & { id?: number };
export type ItemKind = 'config' | 'param' | 'control';
export type ItemInput = Omit<ModelItem, 'id'> & { id?: number };

export const DEVICE_TYPES = [1, 2, 3, 4, 5, 6];
/** Control types: the specification's 1-11, then the operator actions 12-18 (docs/gateway.md, "Commands"). */
export const CONTROL_TYPES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20];
/**
 * The control types a model may list (internal/devmodel ControlLast): CONTROL_TYPES (which the
 * batch dialog offers), then the certificates' 21-24, GetLog's 25, smart charging's 26-28 and
 * the storage commands 29-32 (issue 26), whose parameters only their own cards give.
 */
export const MODEL_CONTROL_TYPES = [...CONTROL_TYPES, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32];
export const LEVELS = [0, 1, 2, 3, 4, 5];
export const CONTROL_LEVELS = [1, 2, 3, 4, 5];

/** Query keys beside their service: roots to refresh, factories for one query. */
export const modelKeys = {
  list: ['dev/model/list'] as const,
  details: ['dev/model'] as const,
  detail: (id: number) => ['dev/model', id] as const,
  all: ['dev/model/all'] as const,
  /** Every item list of a model. */
  itemsOf: (modelId: number) => ['dev/model/item/list', modelId] as const,
  items: (modelId: number, kind: string) => ['dev/model/item/list', modelId, kind] as const,
  aliases: ['dev/model/alias/list'] as const,
};

const base = '/api/auth/sys/dev/model';
export const listModels = (q: Record<string, unknown>) => post<PageResult<DeviceModel>>(`${base}/list`, q);
export const getModel = (id: number) => get<DeviceModel>(`${base}/detail`, { id });
export const addModel = (m: ModelInput) => post<{ id: number }>(`${base}/add`, m);
export const updateModel = (m: ModelInput) => post<null>(`${base}/update`, m);
export const deleteModels = (ids: number[]) => post<null>(`${base}/delete`, { ids });
/** Every model, for selects (parent model, device model). */
export const allModels = async () => (await listModels({ page: 1, pageSize: 100 })).list;

export const listItems = (modelId: number, kind: ItemKind) => post<ModelItem[]>(`${base}/item/list`, { modelId, kind });
export const addItem = (it: ItemInput) => post<{ id: number }>(`${base}/item/add`, it);
/** Adds the storage template's items a storage unit's model lacks (docs/mqtt.md); answers how many. */
export const addStorageItems = (modelId: number) => post<{ added: number }>(`${base}/item/storage`, { modelId });
/** Device types of storage units (storage device, home storage): their models take the storage template. */
export const STORAGE_DEVICE_TYPES = [4, 5];
export const updateItem = (it: ItemInput) => post<null>(`${base}/item/update`, it);
export const deleteItems = (ids: number[]) => post<null>(`${base}/item/delete`, { ids });

export const listAliases = (q: Record<string, unknown>) => post<PageResult<ModelAlias>>(`${base}/alias/list`, q);
export const addAlias = (modelId: number, alias: string) => post<{ id: number }>(`${base}/alias/add`, { modelId, alias });
export const deleteAliases = (ids: number[]) => post<null>(`${base}/alias/delete`, { ids });
