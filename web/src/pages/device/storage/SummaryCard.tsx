/**
 * The Storage tab's header: SoC as a gauge, SoH, the converter's state (a tag coloured by state),
 * the operating mode, the battery's power with its direction (charging, discharging, idle), the
 * setpoint in manual mode, the usable capacity and the rated power; the time of the newest value.
 */
import type { ReactNode } from 'react';
import { Card, Col, Progress, Row, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../utils/time';
import { batteryDirection, batteryPowerOf, formatKw1, formatKwh, formatUnit, knownMode, knownState, socColor, socPercent, STATE_COLORS, type StorageSnapshot } from './storage';

const DIRECTION_COLORS = { charging: 'green', discharging: 'orange', idle: 'default' } as const;

/** A labelled figure with a stable test id and its raw value for tests. */
export function Field({ testId, title, value, raw }: { testId: string; title: string; value: ReactNode; raw?: string | number }) {
  return (
    <div data-testid={testId} data-value={raw ?? ''}>
      <Typography.Text type="secondary">{title}</Typography.Text>
      <div style={{ fontSize: 20, lineHeight: '32px' }}>{value}</div>
    </div>
  );
}

export default function SummaryCard({ s, loading }: { s: StorageSnapshot; loading: boolean }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const pct = socPercent(s.soc);
  const power = batteryPowerOf(s);
  const dir = batteryDirection(power);
  const state = knownState(s.state);
  const mode = knownMode(s.mode);
  return (
    <Card
      title={t('ess.summary')}
      style={{ marginBottom: 16 }}
      loading={loading}
      data-testid="storage-summary"
      extra={s.at > 0 && <Typography.Text type="secondary" data-testid="storage-updated">{t('ess.updated', { time: formatTime(s.at) })}</Typography.Text>}
    >
      {s.at === 0 && !loading && <Typography.Paragraph type="secondary" data-testid="storage-no-values">{t('ess.noValues')}</Typography.Paragraph>}
      <Row gutter={[16, 16]} align="middle">
        <Col xs={24} md={6} style={{ textAlign: 'center' }}>
          <Space direction="vertical" size={4}>
            <Progress
              type="dashboard"
              percent={pct ?? 0}
              strokeColor={socColor(pct)}
              format={() => (pct === null ? '-' : `${pct}%`)}
              data-testid="storage-soc"
              data-value={pct ?? ''}
            />
            <Typography.Text type="secondary">{t('ess.soc')}</Typography.Text>
          </Space>
        </Col>
        <Col xs={24} md={18}>
          <Row gutter={[16, 24]}>
            <Col xs={12} md={8}>
              <Field
                testId="storage-state"
                title={t('ess.state')}
                raw={s.state}
                value={s.state ? <Tag color={state ? STATE_COLORS[state] : 'default'}>{state ? t(`ess.state.${state}`) : s.state}</Tag> : '-'}
              />
            </Col>
            <Col xs={12} md={8}>
              <Field testId="storage-mode" title={t('ess.mode')} raw={s.mode} value={s.mode ? (mode ? t(`ess.mode.${mode}`) : s.mode) : '-'} />
            </Col>
            <Col xs={12} md={8}>
              <Field testId="storage-soh" title={t('ess.soh')} raw={s.soh} value={formatUnit(s.soh, '%', lng, 1)} />
            </Col>
            <Col xs={12} md={8}>
              <Field
                testId="storage-power"
                title={t('ess.batteryPower')}
                raw={power}
                value={
                  <Space size={8}>
                    <span>{formatKw1(power, lng, true)}</span>
                    <Tag color={DIRECTION_COLORS[dir]} data-testid="storage-direction" data-value={dir}>
                      {t(`ess.dir.${dir}`)}
                    </Tag>
                  </Space>
                }
              />
            </Col>
            <Col xs={12} md={8}>
              <Field testId="storage-capacity" title={t('ess.capacity')} raw={s.capacityWh} value={formatKwh(s.capacityWh, lng)} />
            </Col>
            <Col xs={12} md={8}>
              <Field testId="storage-rated" title={t('ess.ratedPower')} raw={s.ratedW} value={formatKw1(s.ratedW, lng)} />
            </Col>
            {s.mode === 'manual' && (
              <Col xs={12} md={8}>
                <Field testId="storage-setpoint" title={t('ess.setpoint')} raw={s.setpointW} value={formatKw1(s.setpointW, lng)} />
              </Col>
            )}
          </Row>
        </Col>
      </Row>
    </Card>
  );
}
