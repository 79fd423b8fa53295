/**
 * Plurals (issue 30 item 20: "1 devices imported"): every English text with a {{count}} that
 * names a countable thing has a `_one` form beside its plural one, and i18next picks it.
 */
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import enUSEntry from './en-US';
import zhCNEntry from './zh-CN';
import type { DomainTexts } from './domains';

const domainTexts = Object.entries(import.meta.glob<Record<string, DomainTexts>>('./domains/*.ts', { eager: true }))
  .filter(([f]) => !f.endsWith('/index.ts'))
  .flatMap(([, m]) => Object.values(m));
const enUS: Record<string, string> = Object.assign({}, enUSEntry, ...domainTexts.map((d) => d['en-US']));
const zhCN: Record<string, string> = Object.assign({}, zhCNEntry, ...domainTexts.map((d) => d['zh-CN']));

const i18n = i18next.createInstance();
void i18n.init({
  resources: { 'en-US': { translation: enUS }, 'zh-CN': { translation: zhCN } },
  lng: 'en-US',
  fallbackLng: 'en-US',
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initAsync: false,
});

describe('plurals', () => {
  it('reads right for 1 and for 2 in en-US and zh-CN', () => {
    const t = i18n.getFixedT('en-US');
    expect(t('device.importDone', { count: 1 })).toBe('1 device imported');
    expect(t('device.importDone', { count: 2 })).toBe('2 devices imported');
    expect(t('device.importDone', { count: 0 })).toBe('0 devices imported');
    expect(t('token.importDone', { count: 1 })).toBe('1 token imported');
    expect(t('pending.banner', { count: 1 })).toBe('1 charger waiting to be added');
    expect(t('pending.banner', { count: 3 })).toBe('3 chargers waiting to be added');
    expect(t('message.unread', { count: 1 })).toBe('1 unread message');
    expect(t('batch.confirm', { count: 1, op: 'Reset' })).toBe('Reset on 1 device?');
    expect(t('chart.step.days', { count: 7 })).toBe('7 days');
    const zh = i18n.getFixedT('zh-CN');
    expect(zh('device.importDone', { count: 1 })).toBe('已导入 1 台设备');
    expect(zh('device.importDone', { count: 2 })).toBe('已导入 2 台设备');
  });

  it('no English {{count}} text hedges with "(s)"', () => {
    expect(Object.entries(enUS).filter(([, v]) => v.includes('{{count}}') && v.includes('(s)'))).toEqual([]);
  });

  it('each _one form has its plural beside it, in both languages, and differs from it in English', () => {
    const ones = Object.keys(enUS).filter((k) => k.endsWith('_one'));
    expect(ones.length).toBeGreaterThan(10);
    for (const k of ones) {
      const base = k.slice(0, -'_one'.length);
      expect(enUS[base], base).toBeTruthy();
      expect(zhCN[k], k).toBeTruthy();
      expect(enUS[k], k).not.toBe(enUS[base]);
    }
  });

  it('an English text counting devices, files, tokens, chargers or messages has a _one form', () => {
    const noun = /\{\{count\}\}[^{]*\b(devices|files|tokens|chargers|messages|images|days)\b/;
    const missing = Object.entries(enUS)
      .filter(([k, v]) => !k.endsWith('_one') && noun.test(v) && !(`${k}_one` in enUS))
      .map(([k]) => k);
    expect(missing).toEqual([]);
  });
});
