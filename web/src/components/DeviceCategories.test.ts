import { describe, expect, it } from 'vitest';
import enUS from '../locales/en-US';
import zhCN from '../locales/zh-CN';
import { categoryRows } from './DeviceCategories';

describe('site device categories', () => {
  it('lists the six categories in device-type order with the server counts', () => {
    const rows = categoryRows({ evCharger: 1, acCharger: 2, storageCharger: 3, storageDevice: 4, homeStorage: 5, v2gCharger: 6 });
    expect(rows.map((r) => r.key)).toEqual(['evCharger', 'acCharger', 'storageCharger', 'storageDevice', 'homeStorage', 'v2gCharger']);
    expect(rows.map((r) => r.count)).toEqual([1, 2, 3, 4, 5, 6]);
    // the code the device list filters by (`category=N`, the model's device type)
    expect(rows.map((r) => r.code)).toEqual([1, 2, 3, 4, 5, 6]);
  });
  it('shows no numbers while loading', () => {
    expect(categoryRows(undefined).every((r) => r.count === undefined)).toBe(true);
  });
  it('names every category in both languages, the spec\'s English names', () => {
    const en = enUS as Record<string, string>;
    const zh = zhCN as Record<string, string>;
    expect(categoryRows(undefined).map((r) => en[r.label])).toEqual(['EV charger', 'AC charger', 'Storage charger', 'Storage device', 'Home storage', 'V2G charger']);
    for (const r of categoryRows(undefined)) expect(zh[r.label]).toBeTruthy();
    expect(en['category.title']).toBeTruthy();
    expect(zh['category.title']).toBeTruthy();
  });
});
