/**
 * Site device categories (EV charger, AC charger, storage charger, storage device, home storage,
 * V2G charger): the devices of a site (site page) or of every site in scope (home), counted by
 * the server from their model's device type (docs/dashboards.md, "Device categories").
 */
import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEVICE_CATEGORIES, type DeviceCategoryCounts } from '../services/stats';
import { formatCount } from '../utils/format';

/** The categories in device-type order with their label keys and counts (undefined while loading). */
export function categoryRows(counts: DeviceCategoryCounts | undefined) {
  return DEVICE_CATEGORIES.map((key) => ({ key, label: `category.${key}`, count: counts?.[key] }));
}

export default function DeviceCategories({ counts, loading, testId }: { counts: DeviceCategoryCounts | undefined; loading: boolean; testId: string }) {
  const { t } = useTranslation();
  return (
    <Card title={t('category.title')} size="small" loading={loading} data-testid={testId}>
      <Row gutter={[16, 16]}>
        {categoryRows(counts).map((r) => (
          <Col key={r.key} xs={12} md={8} xl={4}>
            <div data-testid={`${testId}-${r.key}`} data-value={r.count ?? ''}>
              <Statistic title={t(r.label)} value={r.count === undefined ? '-' : formatCount(r.count)} valueStyle={{ fontSize: 20 }} />
            </div>
          </Col>
        ))}
      </Row>
    </Card>
  );
}
