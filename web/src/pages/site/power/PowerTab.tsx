/**
 * The site's Power tab (issue 25, docs/smart-charging.md): the limit now and what is allocated
 * and drawn (GET site/power, read every 5 s), the setting (SettingsForm; editable with
 * auth_site_power_edit), the chargers in the plan (ChargersTable) and the site's power over time
 * (PowerChart, ECharts fetched after the page). Loaded lazily by the site page when the tab opens.
 */
import { Alert, Card, Col, Progress, Row, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Figure from '../../../components/Figure';
import { useCan } from '../../../components/access';
import { registerTexts } from '../../../locales/domains';
import { powerTexts } from '../../../locales/domains/power';
import { formatA, formatKw, getSitePower, powerKeys, type SitePower } from '../../../services/power';
import { formatTime } from '../../../utils/time';
import ChargersTable from './ChargersTable';
import PowerChart from './PowerChart';
import SettingsForm from './SettingsForm';
import { usagePercent, usageStatus } from './sitePower';

registerTexts(powerTexts);

/** How often the plan and the chargers are read while the tab is open. */
const LIVE_MS = 5000;

function Summary({ p }: { p: SitePower | undefined }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const pct = p ? usagePercent(p.actualW, p.limitW) : null;
  const sessions = p ? p.chargers.filter((c) => c.transactionId > 0).length : undefined;
  return (
    <Card title={t('power.summary')} style={{ marginBottom: 16 }} loading={!p} data-testid="site-power-summary">
      {p && !p.power.enabled && <Alert type="info" showIcon message={t('power.disabledHint')} style={{ marginBottom: 16 }} data-testid="site-power-off" />}
      <Row gutter={[16, 16]} align="middle">
        <Col xs={24} md={6} style={{ textAlign: 'center' }}>
          <Space direction="vertical" size={4}>
            <Progress
              type="dashboard"
              percent={pct ?? 0}
              status={usageStatus(pct)}
              format={() => (pct === null ? '-' : `${pct}%`)}
              data-testid="site-power-usage"
              data-percent={pct ?? ''}
            />
            <Typography.Text type="secondary">{t('power.usage')}</Typography.Text>
          </Space>
        </Col>
        <Col xs={24} md={18}>
          <Row gutter={[16, 24]}>
            <Col xs={12} md={8}>
              <Figure testId="site-power-limit-now" title={t('power.limitNow')} value={p && p.limitW > 0 ? formatKw(p.limitW, lng) : t('power.limitNone')} />
            </Col>
            <Col xs={12} md={8}>
              <Figure
                testId="site-power-limit-phases"
                title={t('power.perPhase')}
                value={p && p.limitW > 0 && p.limitA?.length ? p.limitA.map((a) => formatA(a, lng)).join(' / ') : '-'}
              />
            </Col>
            <Col xs={12} md={8}>
              <Figure testId="site-power-allocated" title={t('power.allocated')} value={formatKw(p?.allocatedW, lng)} />
            </Col>
            <Col xs={12} md={8}>
              <Figure testId="site-power-measured" title={t('power.measured')} value={formatKw(p?.actualW, lng)} />
            </Col>
            <Col xs={12} md={8}>
              <Figure testId="site-power-sessions" title={t('power.sessions')} value={sessions ?? '-'} />
            </Col>
            <Col xs={12} md={8}>
              <div data-testid="site-power-planner">
                <Typography.Text type="secondary">{t('power.planner')}</Typography.Text>
                <div>
                  <Typography.Text strong>{p?.planner || t('power.plannerNone')}</Typography.Text>
                </div>
                {!!p?.plannedAt && <Typography.Text type="secondary">{formatTime(p.plannedAt)}</Typography.Text>}
              </div>
            </Col>
          </Row>
        </Col>
      </Row>
    </Card>
  );
}

export default function PowerTab({ siteId }: { siteId: number }) {
  const can = useCan();
  const q = useQuery({ queryKey: powerKeys.site(siteId), queryFn: () => getSitePower(siteId), refetchInterval: LIVE_MS });
  const p = q.data;
  return (
    <div data-testid="site-power">
      <Summary p={p} />
      {p && <SettingsForm power={p.power} editable={can('auth_site_power_edit')} />}
      <ChargersTable rows={p?.chargers ?? []} loading={q.isPending} />
      <PowerChart siteId={siteId} />
    </div>
  );
}
