/**
 * A site's devices by category (issue 26): chargers and storage units side by side as a filter of
 * the site's device categories with their counts (the site overview's, no call of its own): "All
 * (12) / EV charger (8) / Storage device (2) ...", only the categories the site has (and the one
 * chosen); the table below is the device list of the site and that category (one list call).
 * The device list has no latest values, so storage rows show no SoC or power: the SN opens the
 * unit on its Storage tab.
 */
import { useState } from 'react';
import { Segmented, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { categoryRows } from '../../../components/DeviceCategories';
import { deviceKeys } from '../../../services/device';
import type { DeviceCategoryCounts } from '../../../services/stats';
import { categoryCode } from '../../../utils/categories';
import { formatCount } from '../../../utils/format';
import { DeviceTable } from '../../../components/DeviceTable';
import { categoryOptions } from './categoryOptions';

export default function SiteDevices({ siteId, counts }: { siteId: number; counts: DeviceCategoryCounts | undefined }) {
  const { t } = useTranslation();
  const [category, setCategory] = useState(0);
  const options = categoryOptions(
    categoryRows(counts).map((r) => ({ code: categoryCode(r.key), label: t(r.label), count: r.count })),
    category,
    t('device.status.all'),
    formatCount,
  );
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="site-device-list">
      {options.length > 2 && (
        <Segmented<number>
          value={category}
          onChange={setCategory}
          options={options.map((o) => ({ value: o.value, label: <span data-testid={`site-device-category-${o.value}`} data-count={o.count ?? ''}>{o.label}</span> }))}
          data-testid="site-device-categories"
          data-value={category}
        />
      )}
      <DeviceTable
        key={category}
        fixed={category ? { siteId, category } : { siteId }}
        queryKey={deviceKeys.ofSiteCategory(siteId, category)}
      />
    </Space>
  );
}
