/**
 * A session's meter timeline: the energy register (kWh, left axis) and the power (kW, right
 * axis) of its connector between start and stop, as the server bucketed them (ECharts through
 * the deferred ChartCanvas).
 */
import { useMemo } from 'react';
import { Empty } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import ChartCanvas from '../../../components/charts/ChartCanvas';
import { formatTime, getTimeZone } from '../../../utils/time';
import type { SessionDetail } from '../../../services/session';

/** The x axis' time format for a session of span ms: seconds for short ones, the day for long ones. */
export function axisFormat(span: number): string {
  if (span > 86_400_000) return 'MM-DD HH:mm';
  return span < 15 * 60_000 ? 'HH:mm:ss' : 'HH:mm';
}

export default function Timeline({ session }: { session: SessionDetail }) {
  const { t } = useTranslation();
  const { energy, power } = session.timeline;
  const option = useMemo(() => {
    const tz = getTimeZone();
    const end = session.stoppedAt > 0 ? session.stoppedAt : Date.now();
    const kwh = t('session.timeline.energy');
    const kw = t('session.timeline.power');
    return {
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 16, right: 16, top: 40, bottom: 8, containLabel: true },
      xAxis: {
        type: 'time',
        min: session.startedAt,
        max: end,
        axisLabel: { formatter: (v: number) => dayjs(v).tz(tz).format(axisFormat(end - session.startedAt)), hideOverlap: true },
        axisPointer: { label: { formatter: (p: { value: number }) => formatTime(p.value) } },
      },
      yAxis: [
        { type: 'value', name: 'kWh', scale: true, axisLine: { show: true }, axisLabel: { formatter: (v: number) => `${v} kWh` } },
        { type: 'value', name: 'kW', position: 'right', alignTicks: true, axisLine: { show: true }, axisLabel: { formatter: (v: number) => `${v} kW` } },
      ],
      series: [
        {
          name: kwh,
          type: 'line',
          yAxisIndex: 0,
          showSymbol: energy.length < 60,
          data: energy.map((p) => [p.time, Math.round(p.value) / 1000]),
          tooltip: { valueFormatter: (v: number) => `${v.toFixed(3)} kWh` },
        },
        {
          name: kw,
          type: 'line',
          yAxisIndex: 1,
          step: 'end',
          showSymbol: power.length < 60,
          data: power.map((p) => [p.time, Math.round(p.value) / 1000]),
          tooltip: { valueFormatter: (v: number) => `${v.toFixed(2)} kW` },
        },
      ],
    };
  }, [energy, power, session.startedAt, session.stoppedAt, t]);
  if (!energy.length && !power.length) return <Empty description={t('session.timeline.empty')} />;
  return (
    <div data-testid="session-timeline">
      <ChartCanvas option={option} height={280} />
    </div>
  );
}
