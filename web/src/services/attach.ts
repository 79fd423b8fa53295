/**
 * Attachments and shares (issue 11; docs/attachments.md): folders, files, shares of the console
 * (signed in). The signed-out share calls are in services/share.ts, so the public page does not
 * load this module. Types from the generated OpenAPI types.
 */
import { get, post } from './request';
import type { ApiBody, ApiData } from './typings';

export type AttachFolder = NonNullable<ApiData<'/api/auth/sys/attach/folder/tree', 'get'>[number]>;
export type AttachFolderInput = ApiBody<'/api/auth/sys/attach/folder/add', 'post'>;
export type AttachFilePage = ApiData<'/api/auth/sys/attach/file/list', 'post'>;
export type AttachFile = NonNullable<AttachFilePage['list'][number]>;
export type AttachFileInput = ApiBody<'/api/auth/sys/attach/file/add', 'post'>;
export type AttachListInput = ApiBody<'/api/auth/sys/attach/file/list', 'post'>;
export type AttachLink = ApiData<'/api/auth/sys/attach/file/url', 'get'>;
export type ShareMade = ApiData<'/api/auth/sys/attach/share/add', 'post'>;
export type Share = ApiData<'/api/auth/sys/attach/share/list', 'post'>[number];
export type ShareAccess = ApiData<'/api/auth/sys/attach/share/log/list', 'post'>[number];

const base = '/api/auth/sys/attach';
/** Query keys beside their service: roots to refresh, factories for one query. */
export const attachKeys = {
  trees: ['attach/folder/tree'] as const,
  tree: (customerId: number) => ['attach/folder/tree', customerId] as const,
  files: ['attach/file/list'] as const,
  folderFiles: (folderId: number, customerId: number) => ['attach/file/list', folderId, customerId] as const,
  shares: ['attach/share/list'] as const,
  fileShares: (fileId: number) => ['attach/share/list', fileId] as const,
  shareLog: (shareId: number) => ['attach/share/list', 'log', shareId] as const,
};

export const folderTree = (customerId?: number) => get<AttachFolder[]>(`${base}/folder/tree`, { customerId: customerId || undefined });
export const addFolder = (f: AttachFolderInput) => post<{ id: number }>(`${base}/folder/add`, f);
export const updateFolder = (f: AttachFolderInput) => post<null>(`${base}/folder/update`, f);
export const deleteFolder = (id: number) => post<null>(`${base}/folder/delete`, { id });

export const listFiles = (q: AttachListInput) => post<{ total: number; totalMore?: boolean; list: AttachFile[] }>(`${base}/file/list`, q);
export const addFile = (f: AttachFileInput) => post<{ id: number }>(`${base}/file/add`, f);
export const updateFile = (f: AttachFileInput) => post<null>(`${base}/file/update`, f);
export const moveFiles = (ids: number[], folderId: number) => post<null>(`${base}/file/move`, { ids, folderId });
export const deleteFiles = (ids: number[]) => post<null>(`${base}/file/delete`, { ids });
export const fileUrl = (id: number) => get<AttachLink>(`${base}/file/url`, { id });

export const addShare = (fileId: number, validity: number, code: string) => post<ShareMade>(`${base}/share/add`, { fileId, validity, code });
export const listShares = (fileId: number) => post<Share[]>(`${base}/share/list`, { fileId });
export const resetShare = (id: number, code = '') => post<ShareMade>(`${base}/share/reset`, { id, code });
export const deleteShare = (id: number) => post<null>(`${base}/share/delete`, { id });
export const listShareLog = (id: number) => post<ShareAccess[]>(`${base}/share/log/list`, { id });
