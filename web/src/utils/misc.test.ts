import { describe, expect, it } from 'vitest';
import { isStrongPassword } from './password';
import { isChunkLoadError, CSS_CHUNK_LOAD_FAILED } from './chunkError';
import { formatTime } from './time';
import { parsePaging } from './paging';
import { resolveLocale } from '../i18n';

describe('password rule (docs/api.md#passwords-on-the-wire)', () => {
  it('needs 8-32 chars with upper, lower, digit and special', () => {
    expect(isStrongPassword('Abcdef1!')).toBe(true);
    expect(isStrongPassword('Abcde1!')).toBe(false);
    expect(isStrongPassword('abcdef1!')).toBe(false);
    expect(isStrongPassword('ABCDEF1!')).toBe(false);
    expect(isStrongPassword('Abcdefg!')).toBe(false);
    expect(isStrongPassword('Abcdefg1')).toBe(false);
    expect(isStrongPassword(`A1!${'a'.repeat(29)}`)).toBe(true);
    expect(isStrongPassword(`A1!${'a'.repeat(30)}`)).toBe(false);
  });
});

describe('chunk-load failures', () => {
  it('are recognised', () => {
    expect(isChunkLoadError(new Error('Loading chunk 42 failed.'))).toBe(true);
    expect(isChunkLoadError(Object.assign(new Error('x'), { code: CSS_CHUNK_LOAD_FAILED }))).toBe(true);
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/a.js'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
  });
});

describe('formatTime', () => {
  it('shows YYYY-MM-DD HH:mm:ss in Asia/Hong_Kong by default', () => {
    expect(formatTime(Date.UTC(2026, 0, 2, 3, 4, 5))).toBe('2026-01-02 11:04:05 UTC+8');
    expect(formatTime('2026-01-02T03:04:05Z', 'UTC')).toBe('2026-01-02 03:04:05 UTC');
    expect(formatTime(null)).toBe('-');
  });
});

describe('paging', () => {
  it('defaults to page 1, size 20; only sizes 10/20/50/100', () => {
    expect(parsePaging(new URLSearchParams(''))).toEqual({ page: 1, pageSize: 20 });
    expect(parsePaging(new URLSearchParams('page=3&pageSize=50'))).toEqual({ page: 3, pageSize: 50 });
    expect(parsePaging(new URLSearchParams('page=-1&pageSize=33'))).toEqual({ page: 1, pageSize: 20 });
  });
});

describe('locale resolution', () => {
  it('stored choice wins, else config default, else en-US', () => {
    expect(resolveLocale('zh-CN', 'en-US')).toBe('zh-CN');
    expect(resolveLocale(null, 'zh-CN')).toBe('zh-CN');
    expect(resolveLocale('fr-FR', 'de-DE')).toBe('en-US');
  });
});
