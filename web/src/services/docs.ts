/**
 * The docs wiki (docs/docs-wiki.md): categories, documents, search, drafts. Types from the
 * generated OpenAPI types. The detail call's errors are not toasted (request.ts suppresses
 * /api/auth/sys/article/detail): the page shows its forbidden or not-found view instead.
 */
import { get, post } from './request';
import type { ApiBody, ApiData } from './typings';

export type DocsHome = ApiData<'/api/auth/sys/article/home', 'get'>;
export type DocCategory = NonNullable<ApiData<'/api/auth/sys/article/category/list', 'get'>[number]>;
export type DocCategoryInput = ApiBody<'/api/auth/sys/article/category/add', 'post'>;
export type DocPage = ApiData<'/api/auth/sys/article/list', 'post'>;
export type Doc = NonNullable<DocPage['list'][number]>;
export type DocDetail = ApiData<'/api/auth/sys/article/detail', 'get'>;
export type DocListInput = ApiBody<'/api/auth/sys/article/list', 'post'>;
export type DocPropsInput = ApiBody<'/api/auth/sys/article/add', 'post'>;
export type DocSearchInput = ApiBody<'/api/auth/sys/article/search', 'post'>;
export type DocHitPage = ApiData<'/api/auth/sys/article/search', 'post'>;
export type DocHit = NonNullable<DocHitPage['list'][number]>;
export type DocDraft = ApiData<'/api/auth/sys/article/draft/get', 'get'>;

/** Document types (spec): 100 alarm, 101 configuration, 102 run info. */
export const DOC_TYPES = [100, 101, 102] as const;
export const DOC_LEVELS = [0, 1, 2, 3, 4, 5] as const;
/** The editor's autosave period; e2e tests may shorten it with window.__CHARGEOPS_AUTOSAVE_MS__. */
export const AUTOSAVE_MS = 30_000;
export function autosaveMs(): number {
  const v = (window as { __CHARGEOPS_AUTOSAVE_MS__?: number }).__CHARGEOPS_AUTOSAVE_MS__;
  return typeof v === 'number' && v > 0 ? v : AUTOSAVE_MS;
}

const base = '/api/auth/sys/article';
/** Query keys of the docs screens. */
export const docsKeys = {
  all: ['article'] as const,
  home: () => ['article', 'home'] as const,
  categories: () => ['article', 'category'] as const,
  detail: (id: number) => ['article', 'detail', id] as const,
  search: (q: DocSearchInput) => ['article', 'search', q] as const,
  list: ['article/list'] as const,
  manageList: ['article/list', 'manage'] as const,
  typeList: (type: number, categoryId: number | undefined) => ['article/list', 'type', type, categoryId] as const,
  draft: (id: number) => ['article', 'draft', id] as const,
};

export const docsHome = () => get<Omit<DocsHome, 'categories' | 'recent'> & { categories: DocCategory[]; recent: Doc[] }>(`${base}/home`);
export const listDocs = (q: DocListInput) => post<{ total: number; totalMore?: boolean; list: Doc[] }>(`${base}/list`, q);
export const searchDocs = (q: DocSearchInput) => post<{ total: number; list: DocHit[] }>(`${base}/search`, q);
export const docDetail = (id: number) => get<DocDetail>(`${base}/detail`, { id });
export const addDoc = (d: DocPropsInput) => post<{ id: number }>(`${base}/add`, d);
export const updateDoc = (d: DocPropsInput) => post<null>(`${base}/update`, d);
export const saveDocContent = (id: number, content: string) => post<null>(`${base}/content`, { id, content });
export const setDocStatus = (ids: number[], status: number) => post<null>(`${base}/status`, { ids, status });
export const deleteDocs = (ids: number[]) => post<null>(`${base}/delete`, { ids });

export const listCategories = () => get<DocCategory[]>(`${base}/category/list`);
export const addCategory = (c: DocCategoryInput) => post<{ id: number }>(`${base}/category/add`, c);
export const updateCategory = (c: DocCategoryInput) => post<null>(`${base}/category/update`, c);
export const deleteCategories = (ids: number[]) => post<null>(`${base}/category/delete`, { ids });

export const getDraft = (id: number) => get<DocDraft>(`${base}/draft/get`, { id });
export const saveDraft = (id: number, content: string, leave = false) => post<DocDraft>(`${base}/draft/save`, { id, content, leave }, { silent: leave });
export const deleteDraft = (id: number) => post<null>(`${base}/draft/delete`, { id });
