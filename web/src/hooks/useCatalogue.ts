/** The data catalogue by item name (dict/item/list, read once): labels in the user's language and units. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listDataItems, catalogueKeys } from '../services/catalogue';
import type { DataItem } from '../services/typings';
import { measurandLabel } from '../utils/names';
import { isLocale, DEFAULT_LOCALE } from '../i18n';

export function useCatalogue() {
  const { i18n } = useTranslation();
  const locale = isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
  const q = useQuery({
    queryKey: catalogueKeys.allItems,
    staleTime: 300_000,
    queryFn: async () => {
      const byName: Record<string, DataItem> = {};
      for (let page = 1; page <= 10; page++) {
        const r = await listDataItems({ page, pageSize: 100 });
        for (const it of r.list) byName[it.name] = it;
        if (page * 100 >= r.total) break;
      }
      return byName;
    },
  });
  const items = q.data ?? {};
  return {
    /** The catalogue's unit of a reported name ('' when none). */
    unit: (name: string) => items[name]?.unit ?? '',
    /** "Temperature (°C)" in the user's language; the reported name when the catalogue has none. */
    label: (name: string, withUnit = true) => measurandLabel(items[name] ?? { name }, locale, withUnit),
  };
}
