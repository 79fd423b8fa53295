/**
 * Site device categories (EV charger, AC charger, storage charger, storage device, home storage,
 * V2G charger): the devices of a site (site page) or of every site in scope (home), counted by
 * the server from their model's device type (docs/dashboards.md, "Device categories"). With
 * `linkOf` each category opens the device list filtered by it (utils/categories.ts).
 */
import { Card, Col, Row, Statistic } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DEVICE_CATEGORIES, type DeviceCategoryCounts } from '../services/stats';
import { formatCount } from '../utils/format';

/** The categories in device-type order with their code (1-6), label keys and counts (undefined while loading). */
export function categoryRows(counts: DeviceCategoryCounts | undefined) {
  return DEVICE_CATEGORIES.map((key, i) => ({ key, code: i + 1, label: `category.${key}`, count: counts?.[key] }));
}

export interface DeviceCategoriesProps {
  counts: DeviceCategoryCounts | undefined;
  loading: boolean;
  testId: string;
  /** The list a category opens (its code 1-6); none: the figures are not links. */
  linkOf?: (code: number) => string;
}

export default function DeviceCategories({ counts, loading, testId, linkOf }: DeviceCategoriesProps) {
  const { t } = useTranslation();
  return (
    <Card title={t('category.title')} size="small" loading={loading} data-testid={testId}>
      <Row gutter={[16, 16]}>
        {categoryRows(counts).map((r) => {
          const stat = <Statistic title={t(r.label)} value={r.count === undefined ? '-' : formatCount(r.count)} valueStyle={{ fontSize: 20, cursor: linkOf ? 'pointer' : undefined }} />;
          return (
            <Col key={r.key} xs={12} md={8} xl={4}>
              <div data-testid={`${testId}-${r.key}`} data-value={r.count ?? ''} data-category={r.code}>
                {linkOf ? (
                  <Link to={linkOf(r.code)} data-testid={`${testId}-${r.key}-link`} style={{ color: 'inherit', display: 'block' }}>
                    {stat}
                  </Link>
                ) : (
                  stat
                )}
              </div>
            </Col>
          );
        })}
      </Row>
    </Card>
  );
}
