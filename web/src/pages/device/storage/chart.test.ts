import { describe, expect, it } from 'vitest';
import { CHART_NAMES, hasPoints, powerOption, socOption, spanMs, storageLines, type ChartTexts } from './chart';

const texts: ChartTexts = {
  soc: 'SoC',
  battery: 'Battery',
  grid: 'Grid',
  load: 'Load',
  axisTime: (v) => `T${v}`,
  tooltipTime: (v) => `at ${v}`,
  num: (v) => String(v),
};

const pt = (time: number, avg: number) => ({ time, avg, min: avg, max: avg, count: 1 });

describe('storage history charts', () => {
  const series = [
    { name: 'Battery.SoC', unit: 'Percent', points: [pt(2000, 51.26), pt(1000, 50)] },
    { name: 'Battery.Power', unit: 'W', points: [pt(1000, -3500.4), pt(2000, 1200)] },
    { name: 'Grid.Power', unit: 'kW', points: [pt(1000, 2.5)] },
  ];

  it('asks for SoC and the three powers in one call', () => {
    expect(CHART_NAMES).toEqual(['Battery.SoC', 'Battery.Power', 'Grid.Power', 'Load.Power']);
    expect(spanMs('6h')).toBe(6 * 3_600_000);
  });

  it('turns the series into lines: SoC in %, powers in kW, by time', () => {
    const l = storageLines(series);
    expect(l.soc).toEqual([
      [1000, 50],
      [2000, 51.3],
    ]);
    expect(l.battery).toEqual([
      [1000, -3.5],
      [2000, 1.2],
    ]);
    expect(l.grid).toEqual([[1000, 2.5]]);
    expect(l.load).toEqual([]);
    expect(hasPoints(l)).toBe(true);
    expect(hasPoints(storageLines([]))).toBe(false);
    expect(hasPoints(storageLines(undefined))).toBe(false);
  });

  it('draws SoC on a 0-100 % axis named with its unit', () => {
    const o = socOption(storageLines(series), [0, 3000], texts);
    expect(o.yAxis).toMatchObject({ name: 'SoC (%)', min: 0, max: 100 });
    expect(o.xAxis).toMatchObject({ type: 'time', min: 0, max: 3000 });
    expect(o.series).toHaveLength(1);
    expect(o.series[0]).toMatchObject({ name: 'SoC', type: 'line', showSymbol: true });
    expect(o.tooltip.valueFormatter(51.3)).toBe('51.3 %');
    expect(o.tooltip.valueFormatter(null)).toBe('-');
  });

  it('draws battery, grid and load power on a kW axis', () => {
    const o = powerOption(storageLines(series), [0, 3000], texts);
    expect(o.yAxis).toMatchObject({ name: 'kW' });
    expect(o.series.map((s) => s.name)).toEqual(['Battery', 'Grid', 'Load']);
    expect(o.series[0].data).toEqual([
      [1000, -3.5],
      [2000, 1.2],
    ]);
    expect(o.tooltip.valueFormatter(-3.5)).toBe('-3.5 kW');
    expect(o.xAxis.axisLabel.formatter(5)).toBe('T5');
  });

  it('shows points as dots only when few', () => {
    const many = Array.from({ length: 100 }, (_, i) => pt(i, i));
    const o = powerOption(storageLines([{ name: 'Load.Power', unit: 'W', points: many }]), [0, 100], texts);
    expect(o.series[2].showSymbol).toBe(false);
  });
});
