import { describe, expect, it } from 'vitest';
import i18n, { loadLocale } from './i18n';
import { registerTexts } from './locales/domains';

describe('the Chinese texts load on demand', () => {
  it('are not in the first load, and once loaded keep the texts pages registered before', async () => {
    expect(i18n.exists('com_yes', { lng: 'zh-CN', fallbackLng: [] })).toBe(false);
    registerTexts({ 'en-US': { 'test.early': 'Early' }, 'zh-CN': { 'test.early': '先注册' } });
    await loadLocale('zh-CN');
    expect(i18n.t('com_yes', { lng: 'zh-CN' })).toBe('是');
    expect(i18n.t('test.early', { lng: 'zh-CN' })).toBe('先注册');
    await loadLocale('zh-CN'); // again: nothing changes
    expect(i18n.t('test.early', { lng: 'zh-CN' })).toBe('先注册');
  });
});
