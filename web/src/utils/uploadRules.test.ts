import { describe, expect, it } from 'vitest';
import { acceptOf, checkUpload, extOf, humanLimit, keepLast, storedValueKind, UPLOAD_RULES, type UploadKind } from './uploadRules';

const MB = 1024 * 1024;

describe('upload rules (docs/storage.md, the same table as internal/storage/rules.go)', () => {
  it.each<[UploadKind, string[], number]>([
    ['image', ['jpg', 'jpeg', 'png'], 20 * MB],
    ['file', ['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'pdf', 'txt', 'zip', 'rar', '7z'], 100 * MB],
    ['video', ['mp4', '3gp'], 200 * MB],
    ['legacy', ['jpg', 'png', 'doc', 'docx', 'xls', 'xlsx', 'zip', 'gz', 'data', 'json', 'txt', 'csv'], 50 * MB],
    ['icon', ['jpg', 'png'], 500 * 1024],
  ])('%s accepts %j up to %d bytes', (kind, exts, max) => {
    expect(UPLOAD_RULES[kind].exts).toEqual(exts);
    expect(UPLOAD_RULES[kind].maxBytes).toBe(max);
  });

  it('names limits as the server does', () => {
    expect(humanLimit(20 * MB)).toBe('20 MB');
    expect(humanLimit(500 * 1024)).toBe('500 KB');
  });

  it('reads extensions lower-cased, from the last dot of the base name', () => {
    expect(extOf('Photo.JPG')).toBe('jpg');
    expect(extOf('docs/a.b.PDF')).toBe('pdf');
    expect(extOf('dir.v2/readme')).toBe('');
    expect(extOf('a.')).toBe('');
    expect(extOf('.png')).toBe('png');
    expect(extOf('C:\\x\\y.png')).toBe('png');
  });

  it('builds the accept attribute', () => {
    expect(acceptOf('image')).toBe('.jpg,.jpeg,.png');
  });
});

describe('checkUpload: a required file name', () => {
  it('refuses a file whose name differs from the required one, with the name in the message', () => {
    const want = { key: 'upload.nameMismatch', params: { name: 'params.json' } };
    expect(checkUpload('legacy', { name: 'other.json', size: 10 }, 'params.json')).toEqual(want);
    expect(checkUpload('legacy', { name: 'PARAMS.JSON', size: 10 }, 'params.json')).toEqual(want);
    expect(checkUpload('legacy', { name: 'params.json.txt', size: 10 }, 'params.json')).toEqual(want);
  });
  it('takes the exact name (a browser path\'s base name), then applies the kind\'s rules', () => {
    expect(checkUpload('legacy', { name: 'params.json', size: 10 }, 'params.json')).toBeNull();
    expect(checkUpload('legacy', { name: 'C:\\fakepath\\params.json', size: 10 }, 'params.json')).toBeNull();
    expect(checkUpload('image', { name: 'logo.png', size: 20 * MB + 1 }, 'logo.png')).toEqual({ key: 'upload.tooBig', params: { maxSize: '20 MB' } });
  });
  it('no required name: any name of the kind', () => {
    expect(checkUpload('legacy', { name: 'anything.json', size: 10 })).toBeNull();
    expect(checkUpload('legacy', { name: 'anything.json', size: 10 }, '')).toBeNull();
  });
});

describe('checkUpload', () => {
  const cases: { name: string; kind: UploadKind; file: { name: string; size: number }; want: ReturnType<typeof checkUpload> }[] = [
    { name: 'a small PNG image', kind: 'image', file: { name: 'site.png', size: 1000 }, want: null },
    { name: 'an upper-case JPEG', kind: 'image', file: { name: 'SITE.JPEG', size: 20 * MB }, want: null },
    { name: 'an SVG image', kind: 'image', file: { name: 'x.svg', size: 10 }, want: { key: 'upload.type', params: { typeList: 'jpg, jpeg, png' } } },
    { name: 'a name without extension', kind: 'image', file: { name: 'png', size: 10 }, want: { key: 'upload.type', params: { typeList: 'jpg, jpeg, png' } } },
    { name: 'an image over 20 MB', kind: 'image', file: { name: 'big.jpg', size: 20 * MB + 1 }, want: { key: 'upload.tooBig', params: { maxSize: '20 MB' } } },
    { name: 'an empty file', kind: 'image', file: { name: 'empty.png', size: 0 }, want: { key: 'upload.type', params: { typeList: 'jpg, jpeg, png' } } },
    { name: 'an icon over 500 KB', kind: 'icon', file: { name: 'i.png', size: 500 * 1024 + 1 }, want: { key: 'upload.tooBig', params: { maxSize: '500 KB' } } },
    { name: 'a JPEG icon (icons take jpg and png only)', kind: 'icon', file: { name: 'i.jpeg', size: 10 }, want: { key: 'upload.type', params: { typeList: 'jpg, png' } } },
    { name: 'a legacy xlsx ("excel" in the message)', kind: 'legacy', file: { name: 'x.xlsx', size: 10 }, want: null },
    { name: 'a legacy pdf', kind: 'legacy', file: { name: 'x.pdf', size: 10 }, want: { key: 'upload.type', params: { typeList: 'jpg, png, doc, docx, excel, zip, gz, data, json, txt, csv' } } },
    { name: 'a 3gp video', kind: 'video', file: { name: 'v.3gp', size: 200 * MB }, want: null },
    { name: 'a document over 100 MB', kind: 'file', file: { name: 'd.pdf', size: 100 * MB + 1 }, want: { key: 'upload.tooBig', params: { maxSize: '100 MB' } } },
  ];
  it.each(cases)('$name', ({ kind, file, want }) => {
    expect(checkUpload(kind, file)).toEqual(want);
  });
});

describe('keepLast (a multi-file field keeps the last maxCount)', () => {
  it('drops the earliest values', () => {
    expect(keepLast(['a', 'b', 'c'], 2)).toEqual(['b', 'c']);
    expect(keepLast(['a', 'b'], 2)).toEqual(['a', 'b']);
    expect(keepLast(['a'], 0)).toEqual(['a']);
  });
});

describe('storedValueKind (value → display URL)', () => {
  it.each([
    ['data:image/png;base64,iVBORw0KGgo=', 'direct'],
    ['https://cdn.example.com/a.png', 'direct'],
    ['HTTP://example.com/a', 'direct'],
    ['images/0123456789abcdef-1700000000000.png', 'key'],
    ['/images/a.jpg', 'key'],
    ['images/no-dot', 'none'],
    ['', 'none'],
    ['   ', 'none'],
  ] as const)('%s is %s', (value, kind) => {
    expect(storedValueKind(value)).toBe(kind);
  });
  it('treats a missing value as none', () => {
    expect(storedValueKind(undefined)).toBe('none');
    expect(storedValueKind(null)).toBe('none');
  });
});
