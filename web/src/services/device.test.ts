import { describe, expect, it } from 'vitest';
import { importErrorRows } from './device';
import { fileNameOf } from './download';
import { RequestError } from './request';

describe('device import errors', () => {
  it('maps data.rows to a sorted row table', () => {
    const e = new RequestError('business', 'Row 3: bad', {
      code: 10001,
      data: { rows: [{ row: 4, message: 'SN taken' }, { row: 3, message: 'bad site' }, { nope: 1 }] },
    });
    expect(importErrorRows(e)).toEqual([
      { row: 3, message: 'bad site' },
      { row: 4, message: 'SN taken' },
    ]);
  });
  it('answers [] when the error has no rows', () => {
    expect(importErrorRows(new RequestError('business', 'x', { code: 10001, data: null }))).toEqual([]);
    expect(importErrorRows(new Error('x'))).toEqual([]);
  });
});

describe('download file names', () => {
  it('reads Content-Disposition', () => {
    expect(fileNameOf('attachment; filename="devices.xlsx"', 'x')).toBe('devices.xlsx');
    expect(fileNameOf("attachment; filename*=UTF-8''d%20e.xlsx", 'x')).toBe('d e.xlsx');
    expect(fileNameOf(null, 'fallback.xlsx')).toBe('fallback.xlsx');
  });
});
