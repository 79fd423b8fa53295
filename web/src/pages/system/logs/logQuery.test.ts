import { describe, expect, it } from 'vitest';
import { errorLogBody, exportBody, routeUserId } from './logQuery';

describe('errorLogBody', () => {
  it('turns the error-type filter into kinds', () => {
    expect(errorLogBody({ page: 1, pageSize: 20, kind: 2, level: 1 })).toEqual({ page: 1, pageSize: 20, kinds: [2], level: 1 });
  });
  it('leaves kinds out without a type (the server lists alarms and faults)', () => {
    expect(errorLogBody({ page: 1, sort: '-created' })).toEqual({ page: 1, sort: '-created' });
  });
  it('ignores a type that is not an error type', () => {
    expect(errorLogBody({ kind: 0 })).toEqual({});
  });
});

describe('exportBody', () => {
  it('keeps the filters and order, drops the paging', () => {
    expect(exportBody({ page: 3, pageSize: 50, sn: 'CP-1', sort: 'time' })).toEqual({ sn: 'CP-1', sort: 'time' });
  });
});

describe('routeUserId', () => {
  it('reads a positive user id', () => {
    expect(routeUserId('42')).toBe(42);
  });
  it('filters nothing for an empty, zero or non-numeric id', () => {
    for (const v of [undefined, '', '0', 'abc', '-3', '1e3']) expect(routeUserId(v)).toBeUndefined();
  });
});
