/** Page size default 20, options 10, 20, 50, 100 (docs/api.md#lists); paging kept in the URL. */
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100] as const;

export function parsePaging(params: URLSearchParams): { page: number; pageSize: number } {
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const ps = Number.parseInt(params.get('pageSize') ?? '', 10);
  const pageSize = (PAGE_SIZE_OPTIONS as readonly number[]).includes(ps) ? ps : PAGE_SIZE_DEFAULT;
  return { page, pageSize };
}
