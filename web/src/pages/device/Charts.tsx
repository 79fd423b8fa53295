/**
 * Data charts of a device (POST dev/data/series): pick data items, a connector, a time range and
 * a step (43200 min = calendar months). One line per series (a measurand on one phase at one
 * location, named in the legend), one y axis per unit (energy in kWh, power in kW: the stored Wh
 * and W ÷ 1000; meterFormat.ts), the x axis spans the range, and a range ending now follows
 * the clock (utils/charts.ts). Loaded lazily by the detail page, so
 * ECharts stays in this chunk, out of the entry chunk.
 */
import { useEffect, useMemo, useState } from 'react';
import { Button, Card, DatePicker, Empty, Form, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getSeries } from '../../services/fleet';
import { STEPS, stepLabel } from '../../utils/fleet';
import { chartAxes, chooseRange, defaultStep, liveTickMs, rangeAt, tickOf, type ChartRange } from '../../utils/charts';
import { fromPicker, toPicker } from '../../utils/time';
import { useCatalogueUnits, useRuntime } from './sections';
import { useCatalogue } from '../../hooks/useCatalogue';
import { registerTexts } from '../../locales/domains';
import { meterTexts } from '../../locales/domains/meter';
import { displayUnit, seriesDisplayName, storedUnit } from './meterFormat';
import SeriesChart from './SeriesChart';

registerTexts(meterTexts);

interface Query {
  names: string[];
  connectorId: number;
  range: ChartRange;
  step: number;
}

const DAY = 24 * 3600_000;

/** The clock, rounded down to `tickMs`, re-read once a tick while `on`. */
function useTick(tickMs: number, on: boolean): number {
  const [now, setNow] = useState(() => tickOf(Date.now(), tickMs));
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => setNow(tickOf(Date.now(), tickMs)), Math.min(tickMs, 30_000));
    setNow(tickOf(Date.now(), tickMs));
    return () => clearInterval(timer);
  }, [tickMs, on]);
  return now;
}

export default function Charts({ id, streamUp }: { id: number; streamUp: boolean }) {
  const { t } = useTranslation();
  const runtime = useRuntime(id, streamUp);
  const units = useCatalogueUnits();
  const catalogue = useCatalogue();
  const numeric = useMemo(
    () => [...new Set((runtime.data?.values ?? []).filter((v) => v.value !== '' && Number.isFinite(Number(v.value))).map((v) => v.name))].sort(),
    [runtime.data],
  );
  const connectors = useMemo(() => [0, ...(runtime.data?.connectors ?? []).map((c) => c.connectorId).filter((c) => c > 0)], [runtime.data]);
  const [form] = Form.useForm<{ names: string[]; connectorId: number; range: [Dayjs, Dayjs]; step: number }>();
  const [query, setQuery] = useState<Query | null>(null);
  const live = query?.range.kind === 'live';
  const now = useTick(liveTickMs(query?.step ?? 1), live);
  const range = query ? rangeAt(query.range, live ? now : 0) : null;
  const series = useQuery({
    queryKey: ['dev/data/series', id, query, range],
    queryFn: () => getSeries({ deviceId: id, names: query!.names, connectorId: query!.connectorId, startTime: range![0], endTime: range![1], step: query!.step }),
    enabled: !!query,
    placeholderData: keepPreviousData,
  });
  // the unit a series is stored in: the server's answer, else its latest value's, else the catalogue's
  const unitOf = (n: string) =>
    storedUnit(n, series.data?.find((s) => s.name === n)?.unit || runtime.data?.values.find((v) => v.name === n && v.unit)?.unit, (m) => units[m]);
  const drawn = useMemo(() => {
    if (!series.data) return null;
    return chartAxes(series.data, unitOf);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [series.data, units, runtime.data]);
  const itemLabel = (n: string) => {
    const u = displayUnit(unitOf(n)).label;
    const name = seriesDisplayName(n, (m) => catalogue.label(m, false), t);
    return u ? `${name} (${u})` : name;
  };
  const hasPoints = !!drawn && drawn.series.some((s) => s.points.length > 0);
  const stepText = (s: number) => {
    const l = stepLabel(s);
    return t(l.key, { count: l.count });
  };
  const initial = { connectorId: 0, range: [toPicker(Date.now() - DAY), toPicker(Date.now())] as [Dayjs, Dayjs], step: defaultStep(DAY) };
  return (
    <Card title={t('device.section.charts')} style={{ marginBottom: 16 }} data-testid="section-charts">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Form
          form={form}
          layout="inline"
          initialValues={initial}
          style={{ rowGap: 8 }}
          onValuesChange={(changed: { range?: [Dayjs, Dayjs]; names?: string[] }) => {
            if (changed.range?.[0] && changed.range[1]) form.setFieldValue('step', defaultStep(fromPicker(changed.range[1]) - fromPicker(changed.range[0])));
            // values are kept per connector: follow the connector that reports the first item
            const first = changed.names?.[0];
            const at = first ? runtime.data?.values.find((v) => v.name === first) : undefined;
            if (at) form.setFieldValue('connectorId', at.connectorId);
          }}
          onFinish={(v) =>
            setQuery({ names: v.names, connectorId: v.connectorId, range: chooseRange(fromPicker(v.range[0]), fromPicker(v.range[1]), Date.now()), step: v.step })
          }
        >
          <Form.Item name="names" label={t('chart.items')} rules={[{ required: true, message: t('com_value_required') }]}>
            <Select mode="tags" style={{ minWidth: 280 }} maxCount={20} options={numeric.map((n) => ({ value: n, label: itemLabel(n) }))} data-testid="chart-items" />
          </Form.Item>
          <Form.Item name="connectorId" label={t('runtime.connector')}>
            <Select style={{ width: 120 }} options={connectors.map((c) => ({ value: c, label: c === 0 ? t('chart.wholeDevice') : String(c) }))} />
          </Form.Item>
          <Form.Item name="range" label={t('chart.range')} rules={[{ required: true, message: t('com_value_required') }]}>
            <DatePicker.RangePicker showTime />
          </Form.Item>
          <Form.Item name="step" label={t('chart.step')}>
            <Select style={{ width: 140 }} options={STEPS.map((s) => ({ value: s, label: stepText(s) }))} data-testid="chart-step" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={series.isFetching} data-testid="chart-show">
            {t('chart.show')}
          </Button>
        </Form>
        {drawn && range && hasPoints ? (
          <SeriesChart range={range} step={query!.step} axes={drawn.axes} series={drawn.series} />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={query ? t('chart.noData') : t('chart.pick')} />
        )}
      </Space>
    </Card>
  );
}
