/**
 * Data charts of a device (POST dev/data/series): data items, a connector, a quick range (1 h,
 * 6 h, 24 h, 7 d) or a custom one, and a step (43200 min = calendar months). The charts open
 * without a choice: the device's power, energy, current, voltage, SoC and temperature
 * (chartLayout.ts, defaultItems) over the shortest quick range holding the data of the last day
 * (fitRange, from the first timestamp of a probe), so a charger that started 20 minutes ago
 * opens on 1 h, not squeezed to the right edge of 24 h. One line per series (a measurand on
 * one phase at one location, named in the legend), one y axis per unit (energy in kWh, power
 * in kW: the stored Wh and W ÷ 1000; meterFormat.ts), at most two axes per chart: other units
 * go to stacked charts with the same grid and x range (splitPanels). A range ending now follows
 * the clock (utils/charts.ts). Loaded lazily by the detail page, so ECharts stays in this
 * chunk, out of the entry chunk.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Card, DatePicker, Empty, Form, Segmented, Select, Space, Spin } from 'antd';
import type { Dayjs } from 'dayjs';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getSeries, fleetKeys } from '../../services/fleet';
import { STEPS, stepLabel } from '../../utils/fleet';
import { chartAxes, chooseRange, defaultStep, liveTickMs, rangeAt, tickOf, type ChartRange } from '../../utils/charts';
import { fromPicker, toPicker } from '../../utils/time';
import { useCatalogueUnits, useRuntime } from './sections';
import { useCatalogue } from '../../hooks/useCatalogue';
import { registerTexts } from '../../locales/domains';
import { meterTexts } from '../../locales/domains/meter';
import { displayUnit, seriesDisplayName, storedUnit } from './meterFormat';
import SeriesChart from './SeriesChart';
import { defaultItems, firstTime, fitRange, PROBE_SPAN, QUICK_RANGES, splitPanels, type QuickKey } from './chartLayout';

registerTexts(meterTexts);

interface Query {
  names: string[];
  connectorId: number;
  range: ChartRange;
  step: number;
}

const DAY = 24 * 3600_000;
const spanOf = (k: QuickKey) => QUICK_RANGES.find((q) => q.key === k)!.span;

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
  const [quick, setQuick] = useState<QuickKey | 'custom' | null>(null);
  // the items shown without a choice, once the runtime values are in
  const [defaults, setDefaults] = useState<{ names: string[]; connectorId: number } | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !runtime.data) return;
    started.current = true;
    const d = defaultItems(runtime.data.values);
    if (!d) return;
    form.setFieldsValue({ names: d.names, connectorId: d.connectorId });
    setDefaults(d);
  }, [runtime.data, form]);
  // the first timestamp of the last day (5 min buckets of the first item) picks the range
  const probe = useQuery({
    queryKey: fleetKeys.seriesProbe(id, defaults),
    queryFn: () => {
      const end = Date.now();
      return getSeries({ deviceId: id, names: defaults!.names.slice(0, 1), connectorId: defaults!.connectorId, startTime: end - PROBE_SPAN, endTime: end, step: 5 });
    },
    enabled: !!defaults && !query,
    staleTime: Infinity,
  });
  useEffect(() => {
    if (query || !defaults || !(probe.data || probe.isError)) return;
    const key = fitRange(probe.data ? firstTime(probe.data) : null, Date.now());
    const step = defaultStep(spanOf(key));
    form.setFieldValue('step', step);
    setQuick(key);
    setQuery({ names: defaults.names, connectorId: defaults.connectorId, range: { kind: 'live', span: spanOf(key) }, step });
  }, [probe.data, probe.isError, defaults, query, form]);
  const live = query?.range.kind === 'live';
  const now = useTick(liveTickMs(query?.step ?? 1), live);
  const range = query ? rangeAt(query.range, live ? now : 0) : null;
  const series = useQuery({
    queryKey: fleetKeys.series(id, query, range),
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
  const panels = useMemo(() => (drawn ? splitPanels(drawn.axes, drawn.series) : []), [drawn]);
  const nameOf = (n: string) => seriesDisplayName(n, (m) => catalogue.label(m, false), t);
  const itemLabel = (n: string) => {
    const u = displayUnit(unitOf(n)).label;
    const name = nameOf(n);
    return u ? `${name} (${u})` : name;
  };
  const hasPoints = !!drawn && drawn.series.some((s) => s.points.length > 0);
  const stepText = (s: number) => {
    const l = stepLabel(s);
    return t(l.key, { count: l.count });
  };
  /** A quick range chosen: shown at once for the items in the form, with its default step. */
  const chooseQuick = (key: QuickKey | 'custom') => {
    setQuick(key);
    if (key === 'custom') {
      const r = query && range ? range : [Date.now() - DAY, Date.now()];
      form.setFieldValue('range', [toPicker(r[0]), toPicker(r[1])]);
      return;
    }
    const step = defaultStep(spanOf(key));
    form.setFieldValue('step', step);
    const v = form.getFieldsValue();
    if (v.names?.length) setQuery({ names: v.names, connectorId: v.connectorId, range: { kind: 'live', span: spanOf(key) }, step });
  };
  const waiting = !query && (runtime.isPending || (!!defaults && probe.isFetching));
  const initial = { connectorId: 0, range: [toPicker(Date.now() - DAY), toPicker(Date.now())] as [Dayjs, Dayjs], step: defaultStep(DAY) };
  const group = `device-charts-${id}`;
  return (
    <Card title={t('device.section.charts')} style={{ marginBottom: 16 }} data-testid="section-charts">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Segmented<QuickKey | 'custom'>
          value={quick ?? undefined}
          onChange={chooseQuick}
          options={[...QUICK_RANGES.map((q) => ({ value: q.key, label: t(`chart.quick.${q.key}`) })), { value: 'custom' as const, label: t('chart.quick.custom') }]}
          data-testid="chart-quick"
          data-quick={quick ?? ''}
        />
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
          onFinish={(v) => {
            const r: ChartRange =
              quick === 'custom' || !quick
                ? chooseRange(fromPicker(v.range[0]), fromPicker(v.range[1]), Date.now())
                : { kind: 'live', span: spanOf(quick) };
            if (!quick) setQuick('custom');
            setQuery({ names: v.names, connectorId: v.connectorId, range: r, step: v.step });
          }}
        >
          <Form.Item name="names" label={t('chart.items')} rules={[{ required: true, message: t('com_value_required') }]}>
            <Select mode="tags" style={{ minWidth: 280 }} maxCount={20} options={numeric.map((n) => ({ value: n, label: itemLabel(n) }))} data-testid="chart-items" />
          </Form.Item>
          <Form.Item name="connectorId" label={t('runtime.connector')}>
            <Select style={{ width: 120 }} options={connectors.map((c) => ({ value: c, label: c === 0 ? t('chart.wholeDevice') : String(c) }))} />
          </Form.Item>
          {(quick === 'custom' || !quick) && (
            <Form.Item name="range" label={t('chart.range')} rules={[{ required: true, message: t('com_value_required') }]}>
              <DatePicker.RangePicker showTime data-testid="chart-range" />
            </Form.Item>
          )}
          <Form.Item name="step" label={t('chart.step')}>
            <Select style={{ width: 140 }} options={STEPS.map((s) => ({ value: s, label: stepText(s) }))} data-testid="chart-step" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={series.isFetching} data-testid="chart-show">
            {t('chart.show')}
          </Button>
        </Form>
        {series.isError && <Alert type="error" showIcon message={t('chart.loadFailed')} data-testid="chart-error" />}
        {drawn && range && hasPoints ? (
          <div
            data-testid="series-charts"
            data-axes={drawn.axes.map((a) => a.unit).join('|')}
            data-legend={drawn.series.map((s) => nameOf(s.name)).join('|')}
            data-range={`${range[0]}-${range[1]}`}
            data-panels={panels.length}
          >
            {panels.map((p, i) => (
              <SeriesChart
                key={p.axes.map((a) => a.unit).join('|')}
                range={range}
                step={query!.step}
                axes={p.axes}
                series={p.series}
                group={group}
                slider={i === panels.length - 1}
                height={panels.length === 1 ? 360 : i === panels.length - 1 ? 280 : 250}
              />
            ))}
          </div>
        ) : waiting ? (
          <div style={{ padding: 48, textAlign: 'center' }}>
            <Spin />
          </div>
        ) : (
          !series.isError && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={query ? t('chart.noData') : t('chart.pick')} />
        )}
      </Space>
    </Card>
  );
}
