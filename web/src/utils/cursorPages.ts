/**
 * Keyset paging for lists whose server answers a `next` cursor (the protocol log, issue 9):
 * the answer of page N hands the cursor of page N+1, so going to the next page (or back to
 * one seen) asks the server for the rows after that cursor, an index walk of one page at any
 * depth, instead of a page number the server must count its way to. A page whose cursor is
 * not known yet (a jump, a new filter or sort) is asked for by number as before.
 */

export interface CursorAnswer {
  next?: string;
}

type Query = Record<string, unknown>;

/** Wraps a list fetcher so that pages reached one after another go by cursor. */
export function withCursors<A extends CursorAnswer>(fetch: (q: Query) => Promise<A>): (q: Query) => Promise<A> {
  const cursors = new Map<string, string>();
  return async (q) => {
    const { page, cursor: _ignored, ...rest } = q;
    const n = typeof page === 'number' && page > 0 ? page : 1;
    const listKey = JSON.stringify(rest, Object.keys(rest).sort());
    const cursor = cursors.get(`${listKey}#${n}`);
    const answer = await fetch(cursor ? { ...q, cursor } : q);
    if (answer.next) cursors.set(`${listKey}#${n + 1}`, answer.next);
    return answer;
  };
}
