/**
 * Site device categories by their code, the device type of a device's model (`category` of a
 * device, of the device list's filter and of the status counts; docs/dashboards.md, "Device
 * categories"): 1 EV charger, 2 AC charger, 3 storage charger, 4 storage device, 5 home storage,
 * 6 V2G charger. Names are the `category.<key>` texts; pure, tested in categories.test.ts.
 */
import { DEVICE_CATEGORIES, type DeviceCategoryCounts } from '../services/stats';

export type CategoryKey = keyof DeviceCategoryCounts;

/** The category codes 1-6, in device-type order. */
export const CATEGORY_CODES = DEVICE_CATEGORIES.map((_, i) => i + 1);

/** Storage units (a BMS and a PCS behind a site agent): storage device and home storage. */
export const STORAGE_CATEGORIES: readonly number[] = [4, 5];

/** The key of a category code ("storageDevice" for 4); undefined for 0 (none) or an unknown code. */
export function categoryKey(code: number | null | undefined): CategoryKey | undefined {
  return typeof code === 'number' && code >= 1 ? DEVICE_CATEGORIES[code - 1] : undefined;
}

/** The code of a category key (4 for "storageDevice"); 0 when unknown. */
export function categoryCode(key: string): number {
  return (DEVICE_CATEGORIES as readonly string[]).indexOf(key) + 1;
}

/** The text key naming a category code ("category.storageDevice"); undefined for none. */
export function categoryLabelKey(code: number | null | undefined): string | undefined {
  const k = categoryKey(code);
  return k && `category.${k}`;
}

/** Whether a device of this category is a storage unit (the device page's Storage tab). */
export const isStorageCategory = (code: number | null | undefined): boolean => typeof code === 'number' && STORAGE_CATEGORIES.includes(code);

/** The device list filtered by a category (and other filters, e.g. a site): `/manage/device/list?siteId=3&category=4`. */
export function deviceListOfCategory(code: number, more: Record<string, number | string> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(more)) q.set(k, String(v));
  q.set('category', String(code));
  return `/manage/device/list?${q.toString()}`;
}
