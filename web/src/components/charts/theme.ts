/** Chart constants without ECharts itself, for the parts of a chart drawn outside the canvas. */
import type { CSSProperties } from 'react';

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
