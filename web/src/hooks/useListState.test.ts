import { describe, expect, it } from 'vitest';
import { listQuery, readListState, sortFrom, sortOrderOf, writeListState, type FilterSpec } from './useListState';

const spec: FilterSpec = { name: 'string', status: 'number', siteId: 'number' };

describe('URL list state', () => {
  it('reads paging, sort and typed filters; bad values fall back to defaults', () => {
    const s = readListState(new URLSearchParams('page=3&pageSize=50&sort=-name&name=abc&status=0&siteId=x&other=1'), spec);
    expect(s).toEqual({ page: 3, pageSize: 50, sort: '-name', filters: { name: 'abc', status: 0 } });
    const d = readListState(new URLSearchParams('page=-2&pageSize=33'), spec, '-createTime');
    expect(d).toEqual({ page: 1, pageSize: 20, sort: '-createTime', filters: {} });
  });

  it('writes a patch, dropping empty values and defaults, keeping foreign params', () => {
    const prev = new URLSearchParams('page=4&name=old&keep=1');
    const next = writeListState(prev, { filters: { name: '  new ', status: 0, siteId: undefined }, page: 1 }, spec);
    expect(Object.fromEntries(next)).toEqual({ name: 'new', status: '0', keep: '1' });
    const p = writeListState(next, { page: 2, pageSize: 20, sort: '-createTime' }, spec, '-createTime');
    expect(Object.fromEntries(p)).toEqual({ name: 'new', status: '0', keep: '1', page: '2' });
    const q = writeListState(p, { filters: {} }, spec);
    expect(Object.fromEntries(q)).toEqual({ keep: '1', page: '2' });
  });

  it('round-trips through the URL', () => {
    const state = { page: 2, pageSize: 100, sort: 'name', filters: { name: 'x', status: 3 } };
    expect(readListState(writeListState(new URLSearchParams(), state, spec), spec)).toEqual(state);
  });

  it('builds the request body', () => {
    expect(listQuery({ page: 1, pageSize: 20, sort: '', filters: { name: 'a', status: 0, siteId: undefined } })).toEqual({
      page: 1,
      pageSize: 20,
      name: 'a',
      status: 0,
    });
  });

  it('maps table sort orders', () => {
    expect(sortOrderOf('-name', 'name')).toBe('descend');
    expect(sortOrderOf('name', 'name')).toBe('ascend');
    expect(sortOrderOf('name', 'createTime')).toBeNull();
    expect(sortFrom('name', 'descend')).toBe('-name');
    expect(sortFrom('name', 'ascend')).toBe('name');
    expect(sortFrom('name', null)).toBe('');
  });
});
