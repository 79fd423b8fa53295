/** The console's chart foundation: pies, stacked bars over time buckets, the period picker. */
export { default as PieChart, pieEmpty, type PieChartProps, type PieRing, type PieSlice } from './PieChart';
export { default as BarChart, barsEmpty, bucketValue, type BarBucket, type BarChartProps, type BarSeries } from './BarChart';
export { default as PeriodPicker, type PeriodPickerProps, type Period, type PeriodValue } from './PeriodPicker';
