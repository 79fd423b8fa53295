/**
 * The request bodies of the log screens (docs/logs.md): what the URL's filters and the route's
 * :type?/:id? parameters ask the server for.
 */
import type { ErrorLogQuery } from '../../../services/logs';

/** The error log's list body: the URL's `kind` filter (1 alarm, 2 fault) becomes `kinds`. */
export function errorLogBody(q: Record<string, unknown>): ErrorLogQuery {
  const { kind, ...rest } = q;
  const body = { ...rest } as ErrorLogQuery;
  if (kind === 1 || kind === 2) body.kinds = [kind];
  return body;
}

/** An export body: the list's filters and order without its paging. */
export function exportBody<T extends Record<string, unknown>>(q: T): Omit<T, 'page' | 'pageSize'> {
  const { page: _page, pageSize: _pageSize, ...rest } = q;
  void _page;
  void _pageSize;
  return rest;
}

/**
 * The user id of logs/action/:type?/:id? (docs/logs.md, "Action log"): a positive integer names
 * the user whose rows are shown; anything else filters nothing.
 */
export function routeUserId(id: string | undefined): number | undefined {
  if (!id || !/^\d{1,15}$/.test(id)) return undefined;
  const n = Number(id);
  return n > 0 ? n : undefined;
}
