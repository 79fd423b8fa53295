import { describe, expect, it } from 'vitest';
import enUS from '../locales/en-US';
import zhCN from '../locales/zh-CN';
import { CATEGORY_CODES, categoryCode, categoryKey, categoryLabelKey, deviceListOfCategory, isStorageCategory } from './categories';

describe('device categories by code', () => {
  it('maps the six codes to their keys and back', () => {
    expect(CATEGORY_CODES).toEqual([1, 2, 3, 4, 5, 6]);
    expect(CATEGORY_CODES.map(categoryKey)).toEqual(['evCharger', 'acCharger', 'storageCharger', 'storageDevice', 'homeStorage', 'v2gCharger']);
    expect(CATEGORY_CODES.map((c) => categoryCode(categoryKey(c)!))).toEqual(CATEGORY_CODES);
    expect(categoryKey(0)).toBeUndefined();
    expect(categoryKey(7)).toBeUndefined();
    expect(categoryKey(undefined)).toBeUndefined();
    expect(categoryCode('fridge')).toBe(0);
  });
  it('names every code in both languages', () => {
    const en = enUS as Record<string, string>;
    const zh = zhCN as Record<string, string>;
    for (const c of CATEGORY_CODES) {
      const k = categoryLabelKey(c)!;
      expect(en[k], k).toBeTruthy();
      expect(zh[k], k).toBeTruthy();
    }
    expect(categoryLabelKey(0)).toBeUndefined();
  });
  it('tells storage units (4, 5) from chargers', () => {
    expect(CATEGORY_CODES.filter(isStorageCategory)).toEqual([4, 5]);
    expect(isStorageCategory(0)).toBe(false);
    expect(isStorageCategory(undefined)).toBe(false);
  });
  it('links the device list filtered by category', () => {
    expect(deviceListOfCategory(4)).toBe('/manage/device/list?category=4');
    expect(deviceListOfCategory(1, { siteId: 3 })).toBe('/manage/device/list?siteId=3&category=1');
  });
});
