import { describe, expect, it } from 'vitest';
import i18n from 'i18next';
import enUS from '../locales/en-US';
import zhCN from '../locales/zh-CN';
import { messageQuery, NOTICE_BURST_MS, NoticeGate, noticeText, type NoticeMessage } from './message';
import { eventLabel, eventName, levelCode } from './names';

// Issue 30 item 3: notifications as a triage list (sorting, one notice per burst, notices that
// name the charger, site and alarm) and item 4's one naming of events.

const inst = i18n.createInstance();
await inst.init({ lng: 'en-US', resources: { 'en-US': { translation: enUS }, 'zh-CN': { translation: zhCN } }, interpolation: { escapeValue: false } });
const tFor = (lng: string) => (k: string, o?: Record<string, unknown>) => inst.getFixedT(lng)(k, o);
const nameFor = (lng: string) => (code: string, stored: string) => eventName(code, stored, tFor(lng), (k) => inst.exists(k, { lng }));

const overTemp: NoticeMessage = { sn: 'HK-KB-01-08', deviceName: 'Bay 8', siteName: 'Kowloon Bay', code: 'HighTemperature', name: 'HighTemperature', kind: 1, level: 2 };

describe('message list sort', () => {
  it('sends a known sort as field and order', () => {
    expect(messageQuery({ sort: '-lastAt' })).toMatchObject({ sort: 'lastAt', order: 'desc' });
    expect(messageQuery({ sort: 'startedAt' })).toMatchObject({ sort: 'startedAt', order: 'asc' });
  });
  it('drops an unknown sort', () => {
    expect(messageQuery({ sort: '-id; drop' })).toEqual({ page: 1, pageSize: 20 });
  });
});

describe('NoticeGate', () => {
  it('lets one notice through per burst, however many rises it holds', () => {
    const g = new NoticeGate();
    const shown = [0, 3_000, 6_000, 9_000, 12_000, 15_000].filter((at) => g.pass(at));
    expect(shown).toEqual([0]); // a charger flapping every 3 s: one notice
  });
  it('opens a new notice after a quiet gap', () => {
    const g = new NoticeGate();
    expect(g.pass(0)).toBe(true);
    expect(g.pass(NOTICE_BURST_MS - 1)).toBe(false);
    expect(g.pass(2 * NOTICE_BURST_MS)).toBe(true);
  });
});

describe('noticeText', () => {
  it('names the charger, site, alarm and level', () => {
    expect(noticeText(overTemp, 0, tFor('en-US'), nameFor('en-US'), levelCode)).toBe('HK-KB-01-08 at Kowloon Bay: High temperature (CA)');
  });
  it('counts the other new messages of the burst', () => {
    expect(noticeText(overTemp, 3, tFor('en-US'), nameFor('en-US'), levelCode)).toBe('HK-KB-01-08 at Kowloon Bay: High temperature (CA) (and 3 more)');
  });
  it('says it in Chinese, with the vendor level code kept', () => {
    const s = noticeText(overTemp, 0, tFor('zh-CN'), nameFor('zh-CN'), levelCode);
    expect(s).toContain('Kowloon Bay 的 HK-KB-01-08');
    expect(s).toContain('（级别 CA）');
    expect(s).not.toContain('HighTemperature');
  });
  it('leaves the level out of offline events and falls back to the device name', () => {
    const offline = { ...overTemp, sn: '', kind: 0, code: 'Offline', name: 'Offline', siteName: '' };
    expect(noticeText(offline, 0, tFor('en-US'), (c, n) => n || c, levelCode)).toBe('Bay 8: Offline');
  });
});

describe('one naming of events (eventLabel)', () => {
  const label = (lng: string, code: string, name: string, vendor = '') => eventLabel(code, name, vendor, tFor(lng), (k) => inst.exists(k, { lng }));
  it('names an OCPP code in the UI language with the code beside', () => {
    expect(label('en-US', 'HighTemperature', 'HighTemperature')).toEqual({ name: 'High temperature', code: 'HighTemperature' });
    expect(label('zh-CN', 'HighTemperature', 'HighTemperature')).toEqual({ name: '温度过高', code: 'HighTemperature' });
  });
  it('keeps the vendor’s own code beside the name', () => {
    expect(label('zh-CN', 'OtherError', 'Fan stall', 'E-207')).toEqual({ name: '其他错误', code: 'E-207' });
  });
  it('shows an unknown code once, not twice', () => {
    expect(label('en-US', 'VendorX', '')).toEqual({ name: 'VendorX', code: '' });
  });
  it('one level naming: the same code in every language, the name translated', () => {
    expect([0, 1, 2].map(levelCode)).toEqual(['OA', 'MA', 'CA']);
    for (const lng of ['en-US', 'zh-CN']) for (const l of [0, 1, 2]) expect(tFor(lng)(`event.level.${l}`)).toMatch(new RegExp(`^${levelCode(l)}`));
  });
  it('kinds have one name per language, and the dashboard’s own kind names are gone', () => {
    expect([0, 1, 2, 3].map((k) => tFor('en-US')(`event.kind.${k}`))).toEqual(['Offline', 'Alarm', 'Fault', 'Unavailable']);
    expect(inst.exists('stats.sys.kind.1', { lng: 'en-US' })).toBe(false);
  });
});
