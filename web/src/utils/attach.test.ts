import { describe, expect, it } from 'vitest';
import { flattenFolders, isShareCode, kindOfFile, levelOptions, objectNameOf, shareUrl, validityRequest } from './attach';

describe('attach helpers', () => {
  it('turns a validity choice into the request value', () => {
    expect(validityRequest('1')).toBe(1);
    expect(validityRequest('7')).toBe(7);
    expect(validityRequest('30')).toBe(30);
    expect(validityRequest('permanent')).toBe(0);
    expect(validityRequest('custom', 12)).toBe(12);
    expect(validityRequest('custom', 3650)).toBe(3650);
    expect(validityRequest('custom')).toBeNull();
    expect(validityRequest('custom', null)).toBeNull();
    expect(validityRequest('custom', 0)).toBeNull();
    expect(validityRequest('custom', 3651)).toBeNull();
    expect(validityRequest('custom', 1.5)).toBeNull();
  });

  it('picks the upload kind from the extension', () => {
    expect(kindOfFile('a.JPG')).toBe('image');
    expect(kindOfFile('a.jpeg')).toBe('image');
    expect(kindOfFile('b.png')).toBe('image');
    expect(kindOfFile('c.mp4')).toBe('video');
    expect(kindOfFile('c.3GP')).toBe('video');
    expect(kindOfFile('manual.pdf')).toBe('file');
    expect(kindOfFile('noext')).toBe('file');
    expect(kindOfFile('x.gif')).toBe('file');
  });

  it('builds the share URL on the current origin', () => {
    expect(shareUrl('https://ops.example.com', 'ab12')).toBe('https://ops.example.com/share/file?token=ab12');
    expect(shareUrl('http://localhost:8080/', 'a b')).toBe('http://localhost:8080/share/file?token=a%20b');
  });

  it('checks access codes: empty or 4 digits', () => {
    expect(isShareCode('')).toBe(true);
    expect(isShareCode('1234')).toBe(true);
    expect(isShareCode('123')).toBe(false);
    expect(isShareCode('12a4')).toBe(false);
    expect(isShareCode('12345')).toBe(false);
  });

  it('limits levels to the folder and names objects under docs/', () => {
    expect(levelOptions(2)).toEqual([0, 1, 2]);
    expect(levelOptions(undefined)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(objectNameOf('C:\\tmp\\a.pdf')).toBe('docs/a.pdf');
  });

  it('flattens a folder tree depth first', () => {
    const tree = [{ id: 1, name: 'a', children: [{ id: 2, name: 'b', children: null }, null] }, { id: 3, name: 'c' }];
    expect(flattenFolders(tree).map((f) => f.id)).toEqual([1, 2, 3]);
  });
});
