/**
 * One ECharts instance on a div: created when the div mounts, resized with its container
 * (ResizeObserver), disposed on unmount; the option is set again (not merged) whenever it
 * changes. Event handlers are read through a ref, so a new handler does not redraw.
 */
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import * as echarts from 'echarts/core';
import type { ECharts } from 'echarts/core';

type Handler = (chart: ECharts) => () => void;

export function useEChart(option: object | null, bind?: Handler) {
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const chartRef = useRef<ECharts | null>(null);
  const bindRef = useRef(bind);
  bindRef.current = bind;

  useEffect(() => {
    if (!el) return;
    const chart = echarts.init(el);
    chartRef.current = chart;
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
  }, [el]);

  useEffect(() => {
    if (option && chartRef.current) chartRef.current.setOption(option as echarts.EChartsCoreOption, { notMerge: true });
  }, [option, el]);

  return setEl;
}

/** Default ECharts palette: legends outside the canvas use the same colours. */
export const PALETTE = ['#5470c6', '#91cc75', '#fac858', '#ee6666', '#73c0de', '#3ba272', '#fc8452', '#9a60b4', '#ea7ccc'];

/** Styles of text that is read by assistive technology and tests but not shown. */
export const VISUALLY_HIDDEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
};
