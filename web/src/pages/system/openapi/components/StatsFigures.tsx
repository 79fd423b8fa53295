/** The summary of a range: calls, errors, error rate, average and p50/p90/p99 latency. */
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AccessStats } from '../../../../services/openapiLog';
import { formatCount, formatPercent } from '../../../../utils/format';
import { errorRate, formatMs } from '../shape';
import Figure from '../../../../components/Figure';

export default function StatsFigures({ stats }: { stats: AccessStats | undefined }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const f = stats?.total;
  const ms = (v: number | undefined) => (f && f.calls > 0 ? t('openapi.ms', { value: formatMs(v, lng) }) : '-');
  const bounds = stats?.bounds ?? [];
  const hint = t('openapi.percentileHint', { bounds: bounds.join(', '), last: bounds[bounds.length - 1] ?? '-' });
  return (
    <Row gutter={[16, 16]}>
      <Col xs={12} md={8} xl={3}>
        <Figure testId="openapi-total-calls" title={t('openapi.calls')} value={formatCount(f?.calls, lng)} />
      </Col>
      <Col xs={12} md={8} xl={3}>
        <Figure testId="openapi-total-errors" title={t('openapi.errors')} value={formatCount(f?.errors, lng)} />
      </Col>
      <Col xs={12} md={8} xl={3}>
        <Figure testId="openapi-error-rate" title={t('openapi.errorRate')} value={formatPercent(errorRate(f), lng)} />
      </Col>
      <Col xs={12} md={6} xl={3}>
        <Figure testId="openapi-avg" title={t('openapi.avg')} value={ms(f?.avgMs)} />
      </Col>
      <Col xs={12} md={6} xl={4}>
        <Figure testId="openapi-p50" title={t('openapi.p50')} hint={hint} value={ms(f?.p50)} />
      </Col>
      <Col xs={12} md={6} xl={4}>
        <Figure testId="openapi-p90" title={t('openapi.p90')} hint={hint} value={ms(f?.p90)} />
      </Col>
      <Col xs={12} md={6} xl={4}>
        <Figure testId="openapi-p99" title={t('openapi.p99')} hint={hint} value={ms(f?.p99)} />
      </Col>
    </Row>
  );
}
