/**
 * One ECharts instance on a div: created when the div mounts, resized with its container
 * (ResizeObserver), disposed on unmount; the option is set again (not merged) whenever it
 * changes. Event handlers are read through a ref, so a new handler does not redraw. Charts
 * given one `group` are connected (tooltip, pointer and zoom move together). With reduced motion
 * (utils/motion.ts) charts draw without animation.
 */
import { useEffect, useRef, useState } from 'react';
import * as echarts from 'echarts/core';
import type { ECharts } from 'echarts/core';
import { chartMotion, REDUCED_MOTION } from '../../utils/motion';

/** Binds event handlers to a chart; returns their removal. */
export type ChartBinder = (chart: ECharts) => () => void;

export function useEChart(option: object | null, bind?: ChartBinder, group?: string) {
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const chartRef = useRef<ECharts | null>(null);
  const bindRef = useRef(bind);
  bindRef.current = bind;

  useEffect(() => {
    if (!el) return;
    const chart = echarts.init(el);
    chartRef.current = chart;
    if (group) {
      chart.group = group;
      echarts.connect(group);
    }
    const unbind = bindRef.current?.(chart);
    let ro: ResizeObserver | undefined;
    const onResize = () => chart.resize();
    if (typeof ResizeObserver !== 'undefined') {
      ro = new ResizeObserver(() => onResize());
      ro.observe(el);
    } else window.addEventListener('resize', onResize);
    return () => {
      unbind?.();
      ro?.disconnect();
      window.removeEventListener('resize', onResize);
      chart.dispose();
      chartRef.current = null;
    };
  }, [el, group]);

  useEffect(() => {
    if (option && chartRef.current) chartRef.current.setOption(chartMotion(option, REDUCED_MOTION) as echarts.EChartsCoreOption, { notMerge: true });
  }, [option, el]);

  return setEl;
}

export { PALETTE, VISUALLY_HIDDEN } from './theme';
