import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import enUSEntry from './en-US';
import zhCNEntry from './zh-CN';
import type { DomainTexts } from './domains';
import { manageRoutes } from '../routes';
import { walkRoutes } from '../routeMatch';

// The texts that load with their pages (locales/domains/*.ts) are checked with the entry's.
const domainTexts = Object.entries(import.meta.glob<Record<string, DomainTexts>>('./domains/*.ts', { eager: true }))
  .filter(([f]) => !f.endsWith('/index.ts'))
  .flatMap(([, m]) => Object.values(m));
const enUS: Record<string, string> = Object.assign({}, enUSEntry, ...domainTexts.map((d) => d['en-US']));
const zhCN: Record<string, string> = Object.assign({}, zhCNEntry, ...domainTexts.map((d) => d['zh-CN']));

const SPEC_KEYS = [
  'com_api_error_404',
  'com_error_500',
  'com_error_net',
  'com_error_forbidden',
  'com_error_forbidden_description',
  'com_msg_copy_success',
  'com_msg_copy_fail',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return f === 'locales' ? [] : sourceFiles(p);
    return /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith('.d.ts') ? [p] : [];
  });
}

describe('locales', () => {
  it('en-US and zh-CN have the same keys', () => {
    const en = Object.keys(enUS).sort();
    const zh = Object.keys(zhCN).sort();
    expect(en.filter((k) => !zh.includes(k))).toEqual([]);
    expect(zh.filter((k) => !en.includes(k))).toEqual([]);
  });

  it('every zh-CN value is Chinese, not a copy of the English one (except codes and names)', () => {
    // Keys whose text reads the same in both languages: language names shown in their own
    // language, product, protocol and device-type names, and codes or units alone.
    const SAME = new Set(['com_locale_en-US', 'com_locale_zh-CN', 'menu.openapi', 'model.type.6', 'model.supportsWeb', 'model.supportsSsh']);
    const codeOrUnit = /^[\s\d{}.,:;()/%·~|<>=+\-_*#@'"]*(SN|MAC|URL|IP|WEB\/SSH|OCPP|JSON|SMTP|VPN|ChargeOps|OA|MA|CA|ID|kWh|kW|V|A|W|Hz)?[\s\d{}.,:;()/%·~|<>=+\-_*#@'"]*$/;
    const copies = Object.entries(zhCN).filter(([k, v]) => v === enUS[k] && !SAME.has(k) && !codeOrUnit.test(v));
    expect(copies).toEqual([]);
    const noHan = Object.entries(zhCN).filter(([k, v]) => !/\p{Script=Han}/u.test(v) && !SAME.has(k) && !codeOrUnit.test(v));
    expect(noHan).toEqual([]);
  });

  it('no value is empty', () => {
    expect(Object.entries(enUS).filter(([, v]) => !v.trim())).toEqual([]);
    expect(Object.entries(zhCN).filter(([, v]) => !v.trim())).toEqual([]);
  });

  it('holds the message keys of docs/api.md#envelope', () => {
    for (const k of SPEC_KEYS) {
      expect(enUS[k], k).toBeTruthy();
      expect(zhCN[k], k).toBeTruthy();
    }
  });

  it('has every route name', () => {
    const missing: string[] = [];
    walkRoutes(manageRoutes, (d) => d.name && !(d.name in enUS) && missing.push(d.name));
    expect(missing).toEqual([]);
  });

  it("has every literal key passed to t('...') in the source", () => {
    const src = join(__dirname, '..');
    const missing: string[] = [];
    for (const f of sourceFiles(src)) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/\bt\(\s*'([^']+)'/g)) if (!(m[1] in enUS)) missing.push(`${f}: ${m[1]}`);
      // template keys such as t(`logs.type.${v}`): at least one key with that prefix must exist
      for (const m of text.matchAll(/\bt\(\s*`([^`$]+)\$\{/g)) {
        if (!Object.keys(enUS).some((k) => k.startsWith(m[1]))) missing.push(`${f}: ${m[1]}*`);
      }
    }
    expect(missing).toEqual([]);
  });
});
