import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { THEME } from './theme';

// global.css styles what antd's ConfigProvider does not reach: plain <a> links and the font of
// the pages outside antd's App (issue 30 item 20: blue links, a serif /error page).
const css = readFileSync(join(__dirname, 'global.css'), 'utf8');

describe('global.css and the theme', () => {
  it('colours plain links with the theme colour, never above antd components (specificity 0)', () => {
    const rule = /:where\(a\)\s*\{[^}]*color:\s*(#[0-9a-f]{6})/i.exec(css);
    expect(rule?.[1].toLowerCase()).toBe(THEME.token?.colorPrimary?.toLowerCase());
  });

  it("gives antd's links the theme colour, not antd's default blue", () => {
    expect(THEME.token?.colorLink).toBe(THEME.token?.colorPrimary);
  });

  it('gives the body a sans-serif font', () => {
    expect(/body\s*\{[^}]*font-family:[^;}]*sans-serif/.test(css)).toBe(true);
  });
});
