/**
 * Data charts of a device (POST dev/data/series): pick data items, a connector, a time range and
 * a step (43200 min = calendar months). Loaded lazily by the detail page, so ECharts stays in
 * this chunk, out of the entry chunk.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Card, DatePicker, Empty, Form, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { getSeries } from '../../services/fleet';
import { alignSeries, STEPS, stepLabel, suggestStep } from '../../utils/fleet';
import { fromPicker, toPicker } from '../../utils/time';
import { useRuntime } from './sections';

echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

interface Query {
  names: string[];
  connectorId: number;
  range: [number, number];
  step: number;
}

function LineChartView({ labels, values }: { labels: string[]; values: Record<string, (number | null)[]> }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const chart = echarts.init(ref.current);
    chart.setOption({
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 48, right: 24, top: 36, bottom: 56 },
      xAxis: { type: 'category', data: labels },
      yAxis: { type: 'value', scale: true },
      dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }],
      series: Object.entries(values).map(([name, data]) => ({ name, type: 'line', data, connectNulls: true, showSymbol: labels.length < 60 })),
    });
    const onResize = () => chart.resize();
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      chart.dispose();
    };
  }, [labels, values]);
  return <div ref={ref} style={{ width: '100%', height: 360 }} data-testid="series-chart" />;
}

export default function Charts({ id, streamUp }: { id: number; streamUp: boolean }) {
  const { t } = useTranslation();
  const runtime = useRuntime(id, streamUp);
  const numeric = useMemo(
    () => [...new Set((runtime.data?.values ?? []).filter((v) => v.value !== '' && Number.isFinite(Number(v.value))).map((v) => v.name))].sort(),
    [runtime.data],
  );
  const connectors = useMemo(() => [0, ...(runtime.data?.connectors ?? []).map((c) => c.connectorId).filter((c) => c > 0)], [runtime.data]);
  const [form] = Form.useForm<{ names: string[]; connectorId: number; range: [Dayjs, Dayjs]; step: number }>();
  const [query, setQuery] = useState<Query | null>(null);
  const series = useQuery({
    queryKey: ['dev/data/series', id, query],
    queryFn: () => getSeries({ deviceId: id, names: query!.names, connectorId: query!.connectorId, startTime: query!.range[0], endTime: query!.range[1], step: query!.step }),
    enabled: !!query,
  });
  const aligned = useMemo(() => (series.data && query ? alignSeries(series.data, query.step) : null), [series.data, query]);
  const stepText = (s: number) => {
    const l = stepLabel(s);
    return t(l.key, { count: l.count });
  };
  const initial = { connectorId: 0, range: [toPicker(Date.now() - 24 * 3600 * 1000), toPicker(Date.now())] as [Dayjs, Dayjs], step: 15 };
  return (
    <Card title={t('device.section.charts')} style={{ marginBottom: 16 }} data-testid="section-charts">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Form
          form={form}
          layout="inline"
          initialValues={initial}
          style={{ rowGap: 8 }}
          onValuesChange={(changed: { range?: [Dayjs, Dayjs]; names?: string[] }) => {
            if (changed.range?.[0] && changed.range[1]) form.setFieldValue('step', suggestStep(fromPicker(changed.range[1]) - fromPicker(changed.range[0])));
            // values are kept per connector: follow the connector that reports the first item
            const first = changed.names?.[0];
            const at = first ? runtime.data?.values.find((v) => v.name === first) : undefined;
            if (at) form.setFieldValue('connectorId', at.connectorId);
          }}
          onFinish={(v) => setQuery({ names: v.names, connectorId: v.connectorId, range: [fromPicker(v.range[0]), fromPicker(v.range[1])], step: v.step })}
        >
          <Form.Item name="names" label={t('chart.items')} rules={[{ required: true, message: t('com_value_required') }]}>
            <Select mode="tags" style={{ minWidth: 280 }} maxCount={20} options={numeric.map((n) => ({ value: n, label: n }))} data-testid="chart-items" />
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
        {aligned && aligned.times.length > 0 ? (
          <LineChartView labels={aligned.labels} values={aligned.values} />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={query ? t('chart.noData') : t('chart.pick')} />
        )}
      </Space>
    </Card>
  );
}
