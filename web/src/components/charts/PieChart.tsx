/**
 * A pie (donut) of named figures, optionally with a nested inner ring. Beside the canvas a
 * legend lists every slice with its value: each entry carries `data-testid={testId-key}` and
 * `data-value`, and clicking it selects the slice as clicking the slice does, so tests and
 * keyboard users need not aim at canvas pixels. Slice keys must differ between the two rings.
 */
import { useCallback, useMemo, useRef, type ReactNode } from 'react';
import { Empty, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ECharts } from 'echarts/core';
import { formatCount } from '../../utils/format';
import ChartCanvas from './ChartCanvas';
import { PALETTE } from './theme';

export interface PieSlice {
  key: string;
  name: string;
  value: number;
  color?: string;
}

export type PieRing = 'outer' | 'inner';

export interface PieChartProps {
  slices: PieSlice[];
  /** A nested inner ring (e.g. device health inside device status). */
  inner?: PieSlice[];
  title?: ReactNode;
  /** Names of the rings in the legend (when there is an inner ring). */
  ringNames?: { outer?: string; inner?: string };
  loading?: boolean;
  onSelect?(key: string, ring: PieRing): void;
  height?: number;
  testId?: string;
  valueFormat?: (v: number) => string;
}

interface Colored extends PieSlice {
  color: string;
}

const colorize = (slices: PieSlice[], offset = 0): Colored[] => slices.map((s, i) => ({ ...s, color: s.color ?? PALETTE[(i + offset) % PALETTE.length] }));

/** Whether there is nothing to draw: no slices, or all zero. */
export function pieEmpty(slices: PieSlice[], inner?: PieSlice[]): boolean {
  return ![...slices, ...(inner ?? [])].some((s) => s.value > 0);
}

export default function PieChart({ slices, inner, title, ringNames, loading, onSelect, height = 240, testId, valueFormat }: PieChartProps) {
  const { t, i18n } = useTranslation();
  const fmt = valueFormat ?? ((v: number) => formatCount(v, i18n.language));
  const outer = useMemo(() => colorize(slices), [slices]);
  const innerC = useMemo(() => (inner ? colorize(inner, slices.length) : undefined), [inner, slices.length]);
  const empty = pieEmpty(slices, inner);
  const show = !empty && !(loading && !slices.length);

  const option = useMemo(() => {
    if (!show) return null;
    const data = (list: Colored[]) => list.filter((s) => s.value > 0).map((s) => ({ name: s.name, value: s.value, key: s.key, itemStyle: { color: s.color } }));
    const tooltip = { trigger: 'item' as const, formatter: (p: { marker: string; name: string; value: number; percent: number }) => `${p.marker}${p.name}: <b>${fmt(p.value)}</b> (${p.percent}%)` };
    return {
      tooltip,
      series: [
        {
          type: 'pie',
          name: 'outer',
          radius: innerC ? ['52%', '78%'] : ['42%', '78%'],
          avoidLabelOverlap: true,
          label: { show: false },
          emphasis: { scale: true, scaleSize: 4 },
          data: data(outer),
          cursor: onSelect ? 'pointer' : 'default',
        },
        ...(innerC
          ? [{ type: 'pie', name: 'inner', radius: ['0%', '40%'], label: { show: false }, data: data(innerC), cursor: onSelect ? 'pointer' : 'default' }]
          : []),
      ],
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [show, outer, innerC, !!onSelect, i18n.language, valueFormat]);

  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;
  const bind = useCallback((chart: ECharts) => {
    const handler = (p: { seriesIndex?: number; data?: { key?: string } }) => {
      const key = p.data?.key;
      if (key) onSelectRef.current?.(key, p.seriesIndex === 1 ? 'inner' : 'outer');
    };
    chart.on('click', handler as never);
    return () => chart.off('click', handler as never);
  }, []);

  const legend = (list: Colored[], ring: PieRing, name?: string) => (
    <div role="list" aria-label={name} style={{ display: 'flex', flexWrap: 'wrap', gap: '2px 12px', alignItems: 'center' }} data-testid={testId && `${testId}-${ring}`}>
      {name && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {name}:
        </Typography.Text>
      )}
      {list.map((s) => (
        <span
          key={s.key}
          role="listitem"
          data-testid={testId && `${testId}-${s.key}`}
          data-value={s.value}
          data-ring={ring}
          tabIndex={onSelect ? 0 : undefined}
          onClick={onSelect && (() => onSelect(s.key, ring))}
          onKeyDown={onSelect && ((e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), onSelect(s.key, ring)))}
          style={{ cursor: onSelect ? 'pointer' : undefined, whiteSpace: 'nowrap', fontSize: 12, lineHeight: '20px' }}
        >
          <span aria-hidden style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: s.color, marginRight: 4 }} />
          {s.name} <b>{fmt(s.value)}</b>
        </span>
      ))}
    </div>
  );

  return (
    <div data-testid={testId} data-empty={empty ? '1' : '0'} data-loading={loading ? '1' : '0'}>
      {title && <Typography.Text strong>{title}</Typography.Text>}
      {loading && !slices.length ? (
        <div style={{ height, display: 'flex', alignItems: 'center' }}>
          <Skeleton active paragraph={{ rows: 4 }} />
        </div>
      ) : empty ? (
        <div style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chart.empty')} />
        </div>
      ) : (
        <ChartCanvas option={option} bind={bind} height={height} />
      )}
      {slices.length > 0 && legend(outer, 'outer', innerC ? ringNames?.outer : undefined)}
      {innerC && innerC.length > 0 && legend(innerC, 'inner', ringNames?.inner)}
    </div>
  );
}
