import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const web = join(__dirname, '..');

describe('favicon', () => {
  it('index.html links faviconEN.svg, which the build copies from public/', () => {
    const html = readFileSync(join(web, 'index.html'), 'utf8');
    expect(html).toMatch(/<link rel="icon" type="image\/svg\+xml" href="\/faviconEN\.svg" \/>/);
    const svg = join(web, 'public', 'faviconEN.svg');
    expect(existsSync(svg)).toBe(true);
    const text = readFileSync(svg, 'utf8');
    expect(text.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(text).not.toMatch(/<script|on\w+=/i);
  });
});
