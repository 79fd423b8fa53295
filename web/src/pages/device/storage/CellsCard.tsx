/**
 * The battery's DC side and its cells: DC voltage and current (+ discharge), the lowest and
 * highest cell voltage with their spread, the lowest and highest cell temperature; and the
 * energy counters (charged into and discharged from the battery) in kWh.
 */
import { Card, Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { Field } from './SummaryCard';
import { cellSpreadMv, formatKwh, formatUnit, type StorageSnapshot } from './storage';

export default function CellsCard({ s }: { s: StorageSnapshot }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const spread = cellSpreadMv(s.cellVMin, s.cellVMax);
  const fields = [
    { testId: 'storage-dc-voltage', title: t('ess.dcVoltage'), raw: s.batteryV, value: formatUnit(s.batteryV, 'V', lng, 1) },
    { testId: 'storage-dc-current', title: t('ess.dcCurrent'), raw: s.batteryA, value: formatUnit(s.batteryA, 'A', lng, 1) },
    { testId: 'storage-cell-vmin', title: t('ess.cellVoltageMin'), raw: s.cellVMin, value: formatUnit(s.cellVMin, 'V', lng, 3) },
    { testId: 'storage-cell-vmax', title: t('ess.cellVoltageMax'), raw: s.cellVMax, value: formatUnit(s.cellVMax, 'V', lng, 3) },
    { testId: 'storage-cell-spread', title: t('ess.cellSpread'), raw: spread, value: formatUnit(spread, 'mV', lng, 0) },
    { testId: 'storage-cell-tmin', title: t('ess.cellTempMin'), raw: s.cellTMin, value: formatUnit(s.cellTMin, '°C', lng, 1) },
    { testId: 'storage-cell-tmax', title: t('ess.cellTempMax'), raw: s.cellTMax, value: formatUnit(s.cellTMax, '°C', lng, 1) },
  ];
  return (
    <>
      <Card title={t('ess.cells')} style={{ marginBottom: 16 }} data-testid="storage-cells">
        <Row gutter={[16, 16]}>
          {fields.map((f) => (
            <Col key={f.testId} xs={12} md={8}>
              <Field {...f} />
            </Col>
          ))}
        </Row>
      </Card>
      <Card title={t('ess.energy')} style={{ marginBottom: 16 }} data-testid="storage-energy">
        <Row gutter={[16, 16]}>
          <Col xs={12}>
            <Field testId="storage-energy-charged" title={t('ess.charged')} raw={s.chargedWh} value={formatKwh(s.chargedWh, lng)} />
          </Col>
          <Col xs={12}>
            <Field testId="storage-energy-discharged" title={t('ess.discharged')} raw={s.dischargedWh} value={formatKwh(s.dischargedWh, lng)} />
          </Col>
        </Row>
      </Card>
    </>
  );
}
