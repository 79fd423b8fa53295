import { describe, expect, it, vi } from 'vitest';
import { withCursors } from './cursorPages';

describe('protocol-log keyset paging', () => {
  it('asks for the next page by the cursor of the page before, and for other pages by number', async () => {
    const fetch = vi.fn(async (q: Record<string, unknown>) => ({ list: [], total: 100, next: `after-${String(q.page)}` }));
    const list = withCursors(fetch);
    await list({ page: 1, pageSize: 20, sn: 'A' });
    await list({ page: 2, pageSize: 20, sn: 'A' });
    await list({ page: 5, pageSize: 20, sn: 'A' }); // a jump: by number
    await list({ page: 2, pageSize: 20, sn: 'B' }); // another filter: by number
    await list({ pageSize: 20, sn: 'A', page: 2 }); // back to a page seen, keys in another order
    await list({ page: 2, pageSize: 50, sn: 'A' }); // another page size: by number
    expect(fetch.mock.calls.map(([q]) => q.cursor)).toEqual([undefined, 'after-1', undefined, undefined, 'after-1', undefined]);
  });

  it('keeps no cursor after the last page', async () => {
    const fetch = vi.fn(async (_q: Record<string, unknown>): Promise<{ list: never[]; total: number; next?: string }> => ({ list: [], total: 3 }));
    const list = withCursors(fetch);
    await list({ page: 1, pageSize: 20 });
    await list({ page: 2, pageSize: 20 });
    expect(fetch.mock.calls.map(([q]) => q.cursor)).toEqual([undefined, undefined]);
  });
});
