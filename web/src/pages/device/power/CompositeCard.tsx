/**
 * "Composite schedule" (control type 28): the limits the charger will apply on a connector over
 * the next hour(s), every profile stacked, as the charger computes them. The command is
 * followed to its result, then its answer is drawn as a step chart (time on x: start + each
 * period's start; the limit in the unit on y; the last period held to the end of the duration).
 * An empty or failed answer shows the command's message. ECharts comes with the chart canvas
 * (components/charts ChartCanvas), fetched after the page.
 */
import { useMemo, useState } from 'react';
import { Alert, Button, Card, Form, Radio, Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import ChartCanvas from '../../../components/charts/ChartCanvas';
import { PALETTE } from '../../../components/charts/theme';
import { CommandResults } from '../../../components/fleet';
import { useCommands } from '../../../hooks/useCommands';
import { getCommand, RESULT } from '../../../services/fleet';
import { getConnectorOps, opsKeys } from '../../../services/ops';
import { messageText, scParams, type CompositeSchedule } from '../../../services/power';
import { formatTime, getTimeZone } from '../../../utils/time';
import { COMPOSITE_DURATIONS, compositePoints, parseComposite, SC_CTL } from './profile';

interface Values {
  connectorId: number;
  duration: number;
  rateUnit: 'A' | 'W' | '';
}

const HEIGHT = 280;

function CompositeChart({ c }: { c: CompositeSchedule }) {
  const { t, i18n } = useTranslation();
  const points = useMemo(() => compositePoints(c), [c]);
  const option = useMemo(() => {
    const tz = getTimeZone();
    const fmt = c.duration > 24 * 3600 ? 'MM-DD HH:mm' : 'HH:mm';
    const num = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
    return {
      color: [PALETTE[0]],
      grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
      tooltip: {
        trigger: 'axis',
        valueFormatter: (v: number) => `${num.format(v)} ${c.unit}`,
        axisPointer: { label: { formatter: (p: { value: number }) => formatTime(p.value) } },
      },
      xAxis: {
        type: 'time',
        min: c.start,
        max: c.start + c.duration * 1000,
        axisLabel: { formatter: (v: number) => dayjs(v).tz(tz).format(fmt), hideOverlap: true },
      },
      yAxis: { type: 'value', name: c.unit, min: 0, axisLabel: { formatter: (v: number) => num.format(v) } },
      series: [{ name: t('sc.limit'), type: 'line', step: 'end', showSymbol: points.length <= 48, areaStyle: { opacity: 0.12 }, data: points }],
    };
  }, [c, points, t, i18n.language]);
  return (
    <div data-testid="sc-composite-chart" data-unit={c.unit} data-points={points.map((p) => `${p[0]}:${p[1]}`).join(',')}>
      <Typography.Text type="secondary">
        {t('sc.compositeAt', { time: formatTime(c.start), duration: `${c.duration} s`, unit: c.unit })}
      </Typography.Text>
      <ChartCanvas option={option} height={HEIGHT} />
    </div>
  );
}

export default function CompositeCard({ device, editable }: { device: { id: number; sn: string }; editable: boolean }) {
  const { t, i18n } = useTranslation();
  const cmds = useCommands();
  const [form] = Form.useForm<Values>();
  const [answer, setAnswer] = useState<{ c: CompositeSchedule | null; message: string } | null>(null);
  const connectors = useQuery({ queryKey: opsKeys.connectors(device.id), queryFn: () => getConnectorOps(device.id) });
  const options = (connectors.data ?? []).map((c) => c.connectorId).filter((c) => c > 0);
  const connectorOptions = (options.length ? options : [1]).map((c) => ({ value: c, label: String(c) }));

  const get = async (v: Values) => {
    setAnswer(null);
    const states = await cmds.send([device], SC_CTL.composite, scParams({ connectorId: v.connectorId, duration: v.duration, rateUnit: v.rateUnit }));
    const s = states?.[0];
    if (!s) return;
    let c: CompositeSchedule | null = null;
    let msg = s.message ?? '';
    if (s.id) {
      const cmd = await getCommand(s.id);
      if (cmd.result === RESULT.success) c = parseComposite(cmd.answer);
      msg = cmd.message || msg;
    }
    setAnswer({ c, message: messageText(msg, t, (k) => i18n.exists(k)) });
  };

  return (
    <Card title={t('sc.composite')} style={{ marginBottom: 16 }} data-testid="sc-composite-card">
      <Typography.Paragraph type="secondary">{t('sc.compositeHint')}</Typography.Paragraph>
      {editable ? (
        <Form<Values> form={form} layout="inline" initialValues={{ connectorId: 1, duration: 3600, rateUnit: 'A' }} onFinish={(v) => void get(v)}>
          <Form.Item name="connectorId" label={t('sc.f.connectorId')}>
            <Select style={{ width: 100 }} options={connectorOptions} data-testid="sc-composite-connector" />
          </Form.Item>
          <Form.Item name="duration" label={t('sc.duration')}>
            <Radio.Group
              optionType="button"
              options={COMPOSITE_DURATIONS.map((d) => ({ value: d, label: t(`power.span.${d / 3600}h`) }))}
              data-testid="sc-composite-duration"
            />
          </Form.Item>
          <Form.Item name="rateUnit" label={t('sc.rateUnit')}>
            <Radio.Group
              optionType="button"
              options={[
                { value: 'A', label: 'A' },
                { value: 'W', label: 'W' },
                { value: '', label: t('sc.rateUnit.any') },
              ]}
              data-testid="sc-composite-unit"
            />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={cmds.sending} data-testid="sc-composite-get">
              {t('sc.compositeGet')}
            </Button>
          </Form.Item>
        </Form>
      ) : (
        <Typography.Paragraph type="secondary">{t('sc.notAllowed')}</Typography.Paragraph>
      )}
      <div style={{ marginTop: 12 }}>
        <CommandResults states={cmds.states} sending={cmds.sending} />
      </div>
      {answer &&
        (answer.c ? (
          <div style={{ marginTop: 12 }}>
            <CompositeChart c={answer.c} />
          </div>
        ) : (
          <Alert style={{ marginTop: 12 }} type="warning" showIcon message={answer.message || t('sc.compositeEmpty')} data-testid="sc-composite-empty" />
        ))}
    </Card>
  );
}
