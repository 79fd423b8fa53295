/**
 * URL-synced state of a list page (decisions §3): page, pageSize (10/20/50/100, default 20),
 * sort ("field" or "-field") and the search filters all live in the query string, so a list
 * can be bookmarked, reloaded and navigated back to.
 */
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PAGE_SIZE_DEFAULT, parsePaging } from '../utils/paging';

export type FilterKind = 'string' | 'number';
/** Filter names and how their URL text is read. */
export type FilterSpec = Record<string, FilterKind>;
export type FilterValues = Record<string, string | number | undefined>;

export interface ListState {
  page: number;
  pageSize: number;
  sort: string;
  filters: FilterValues;
}

const RESERVED = new Set(['page', 'pageSize', 'sort']);

export function readListState(params: URLSearchParams, spec: FilterSpec, defaultSort = ''): ListState {
  const { page, pageSize } = parsePaging(params);
  const filters: FilterValues = {};
  for (const [name, kind] of Object.entries(spec)) {
    const raw = params.get(name);
    if (raw === null || raw === '') continue;
    if (kind === 'number') {
      const n = Number(raw);
      if (Number.isFinite(n)) filters[name] = n;
    } else filters[name] = raw;
  }
  return { page, pageSize, sort: params.get('sort') ?? defaultSort, filters };
}

/** New query string: `patch` over `prev`; empty values and defaults are left out. */
export function writeListState(prev: URLSearchParams, patch: Partial<ListState>, spec: FilterSpec, defaultSort = ''): URLSearchParams {
  const next = new URLSearchParams(prev);
  const set = (k: string, v: string | number | undefined | null, dflt?: string | number) => {
    if (v === undefined || v === null || v === '' || v === dflt) next.delete(k);
    else next.set(k, String(v));
  };
  if (patch.filters) {
    for (const name of Object.keys(spec)) {
      const v = patch.filters[name];
      set(name, typeof v === 'string' ? v.trim() : v);
    }
  }
  if ('page' in patch) set('page', patch.page, 1);
  if ('pageSize' in patch) set('pageSize', patch.pageSize, PAGE_SIZE_DEFAULT);
  if ('sort' in patch) set('sort', patch.sort, defaultSort);
  return next;
}

/** The request body of a list call: paging, sort and the filters that are set. */
export function listQuery(state: ListState): Record<string, unknown> {
  const q: Record<string, unknown> = { page: state.page, pageSize: state.pageSize };
  if (state.sort) q.sort = state.sort;
  for (const [k, v] of Object.entries(state.filters)) if (v !== undefined && !RESERVED.has(k)) q[k] = v;
  return q;
}

/** Antd Table sort order of a column key for a sort string. */
export function sortOrderOf(sort: string, key: string): 'ascend' | 'descend' | null {
  if (sort === key) return 'ascend';
  if (sort === `-${key}`) return 'descend';
  return null;
}

export function sortFrom(key: string | undefined, order: 'ascend' | 'descend' | null | undefined): string {
  if (!key || !order) return '';
  return order === 'descend' ? `-${key}` : key;
}

export interface ListController extends ListState {
  spec: FilterSpec;
  /** Sets filters (page back to 1). */
  search(filters: FilterValues): void;
  setPaging(page: number, pageSize: number): void;
  setSort(sort: string): void;
  reset(): void;
  query: Record<string, unknown>;
}

/**
 * `inMemory`: the same state kept in the component instead of the URL (a list embedded in a
 * detail page, whose URL belongs to the page).
 */
export function useListState(spec: FilterSpec, defaultSort = '', inMemory = false): ListController {
  const [urlParams, setUrlParams] = useSearchParams();
  const [memParams, setMemParams] = useState(() => new URLSearchParams());
  const params = inMemory ? memParams : urlParams;
  const setParams = inMemory ? setMemParams : setUrlParams;
  const state = useMemo(() => readListState(params, spec, defaultSort), [params, spec, defaultSort]);
  const apply = useCallback(
    (patch: Partial<ListState>) => setParams((prev) => writeListState(prev, patch, spec, defaultSort)),
    [setParams, spec, defaultSort],
  );
  const query = useMemo(() => listQuery(state), [state]);
  return {
    ...state,
    spec,
    query,
    search: (filters) => apply({ filters, page: 1 }),
    setPaging: (page, pageSize) => apply({ page: pageSize !== state.pageSize ? 1 : page, pageSize }),
    setSort: (sort) => apply({ sort, page: 1 }),
    // only this list's keys: other parameters of the page (a tab, ...) stay
    reset: () =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        for (const k of [...Object.keys(spec), ...RESERVED]) next.delete(k);
        return next;
      }),
  };
}
