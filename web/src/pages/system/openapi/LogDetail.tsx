/**
 * system/openapi/logDetail/:id/:appId — one application's access statistics and request log
 * (docs/openapi-console.md): a range of whole days in the console's time zone (default the last
 * 7, today included, in the URL as from/to),
 * summary figures, calls per day with errors stacked, calls and p50/p90/p99 latency per
 * endpoint, and the request log of the same range below.
 */
import { Alert, Card, Space, Tag, Tooltip, Typography } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { NotFoundResult, PageHeader } from '../../../components/PageHeader';
import { registerTexts } from '../../../locales/domains';
import { openapiTexts } from '../../../locales/domains/openapi';
import { accessStats, openapiKeys } from '../../../services/openapiLog';
import { getTimeZone } from '../../../utils/time';
import DayRangePicker from './components/DayRangePicker';
import RequestTable from './components/RequestTable';
import StatsCharts from './components/StatsCharts';
import StatsFigures from './components/StatsFigures';
import { MAX_DAYS, rangeMs, readRange, type DayRange } from './shape';

registerTexts(openapiTexts);

export default function OpenapiLogDetail() {
  const { t } = useTranslation();
  const params = useParams();
  const id = Number(params.id);
  const appId = params.appId ?? '';
  const [search, setSearch] = useSearchParams();
  const tz = getTimeZone();
  const range = readRange(search.get('from'), search.get('to'), Date.now(), tz);
  const [start, end] = rangeMs(range, tz);
  const setRange = (r: DayRange) =>
    setSearch((prev) => {
      const next = new URLSearchParams(prev);
      next.set('from', r.from);
      next.set('to', r.to);
      next.delete('page'); // the log starts again at its first page
      return next;
    });
  const q = useQuery({
    queryKey: openapiKeys.stats(id, start, end),
    queryFn: () => accessStats(id, start, end),
    enabled: id > 0,
    placeholderData: keepPreviousData,
    retry: false,
  });
  if (!(id > 0) || q.isError) return <NotFoundResult />;
  const s = q.data;
  const app = s?.app;
  return (
    <div data-testid="openapi-log-detail">
      <PageHeader
        back="/manage/system/openapi/list"
        title={app?.name ?? ''}
        sub={
          app && (
            <Space size="middle" wrap>
              <Tag color={app.status === 1 ? 'green' : 'default'}>{t(`openapi.status.${app.status === 1 ? 1 : 0}`)}</Tag>
              <Typography.Text code copyable translate="no" data-testid="openapi-appid">
                {app.appId}
              </Typography.Text>
              <Typography.Text type="secondary">
                {t('openapi.user')}: {app.userName || `#${app.userId}`}
              </Typography.Text>
              {app.customerName && (
                <Typography.Text type="secondary">
                  {t('openapi.customer')}: {app.customerName}
                </Typography.Text>
              )}
            </Space>
          )
        }
        extra={
          <Space>
            <Typography.Text type="secondary">{t('openapi.range', { tz })}</Typography.Text>
            <DayRangePicker value={range} onChange={setRange} />
            <Tooltip title={t('openapi.rangeHint', { tz, max: MAX_DAYS })}>
              <QuestionCircleOutlined />
            </Tooltip>
          </Space>
        }
      />
      {app && appId !== app.appId && <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t('openapi.appMismatch')} />}
      <Card style={{ marginBottom: 16 }} loading={q.isPending}>
        <StatsFigures stats={s} />
      </Card>
      <StatsCharts stats={s} loading={q.isPending} />
      <Card title={t('openapi.log')}>
        <RequestTable id={id} start={start} end={end} endpoints={(s?.endpoints ?? []).map((e) => e.endpoint)} />
      </Card>
    </div>
  );
}
