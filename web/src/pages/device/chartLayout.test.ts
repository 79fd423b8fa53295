import { describe, expect, it } from 'vitest';
import { chartAxes } from '../../utils/charts';
import { defaultItems, firstTime, fitRange, PANEL_GRID, splitPanels } from './chartLayout';

const M = 60_000;
const H = 60 * M;
const NOW = 1_800_000_000_000;

describe('default range of the device charts', () => {
  it('opens on the shortest quick range that holds the data of the last day', () => {
    expect(fitRange(NOW - 20 * M, NOW)).toBe('1h');
    expect(fitRange(NOW - H, NOW)).toBe('1h');
    expect(fitRange(NOW - 3 * H, NOW)).toBe('6h');
    expect(fitRange(NOW - 23 * H, NOW)).toBe('24h');
    expect(fitRange(NOW - 30 * H, NOW)).toBe('24h');
  });
  it('opens on 7 days when the last day has no data', () => {
    expect(fitRange(null, NOW)).toBe('7d');
  });
  it('reads the first timestamp of several series', () => {
    expect(firstTime([{ points: [{ time: 5 }, { time: 9 }] }, { points: [{ time: 3 }] }, { points: [] }])).toBe(3);
    expect(firstTime([{ points: [] }])).toBeNull();
    expect(firstTime([])).toBeNull();
  });
});

describe('items shown without a choice', () => {
  const v = (name: string, connectorId: number, value = '1') => ({ name, connectorId, value });
  it('takes power, energy, current, voltage, SoC and temperature of the connector reporting most of them', () => {
    expect(
      defaultItems([
        v('Temperature', 0),
        v('Voltage', 1),
        v('SoC', 1),
        v('Power.Active.Import', 1),
        v('Energy.Active.Import.Register', 1),
        v('Current.Import', 1),
        v('Temperature', 1),
        v('Frequency', 1),
        v('Power.Active.Import', 2),
      ]),
    ).toEqual({ connectorId: 1, names: ['Power.Active.Import', 'Energy.Active.Import.Register', 'Current.Import', 'Voltage', 'SoC', 'Temperature'] });
  });
  it('keeps every phase and location, at most eight series', () => {
    const d = defaultItems([
      v('Voltage.L3-N', 1),
      v('Voltage.L1-N', 1),
      v('Voltage.L2-N', 1),
      v('Temperature@Body', 1),
      v('Temperature', 1),
      v('Current.Import.L1', 1),
      v('Current.Import.L2', 1),
      v('Current.Import.L3', 1),
      v('Power.Active.Import', 1),
    ]);
    expect(d?.names).toEqual(['Power.Active.Import', 'Current.Import.L1', 'Current.Import.L2', 'Current.Import.L3', 'Voltage.L1-N', 'Voltage.L2-N', 'Voltage.L3-N', 'Temperature']);
  });
  it('falls back to the numeric items a device reports, none without numbers', () => {
    expect(defaultItems([v('Frequency', 0), v('RPM', 0), v('Firmware', 0, '1.0.0')])).toEqual({ connectorId: 0, names: ['Frequency', 'RPM'] });
    expect(defaultItems([v('FirmwareStatus', 0, 'Installing')])).toBeNull();
    expect(defaultItems([])).toBeNull();
  });
});

describe('stacked charts of at most two y axes', () => {
  const pts = [{ time: 0, avg: 1 }];
  const units: Record<string, string> = {
    'Power.Active.Import': 'W',
    'Energy.Active.Import.Register': 'Wh',
    'Current.Import': 'A',
    Voltage: 'V',
    SoC: 'Percent',
    Temperature: 'Celsius',
    Frequency: 'Hz',
  };
  const draw = (names: string[]) => {
    const d = chartAxes(
      names.map((name) => ({ name, points: pts })),
      (n) => units[n],
    );
    return splitPanels(d.axes, d.series);
  };
  it('pairs power with energy, current with voltage, SoC with temperature', () => {
    const panels = draw(['Power.Active.Import', 'Voltage', 'Energy.Active.Import.Register', 'SoC', 'Current.Import', 'Temperature']);
    expect(panels.map((p) => p.axes.map((a) => a.unit))).toEqual([
      ['kW', 'kWh'],
      ['V', 'A'],
      ['%', '°C'],
    ]);
    // each series on its chart's left (0) or right (1) axis, with its own unit
    for (const p of panels) {
      expect(p.axes.length).toBeLessThanOrEqual(2);
      for (const s of p.series) expect(p.axes[s.axis].names).toContain(s.name);
    }
    expect(panels[1].series.map((s) => [s.name, s.axis])).toEqual([
      ['Voltage', 0],
      ['Current.Import', 1],
    ]);
  });
  it('pairs the other units in order, and never draws three axes on one chart', () => {
    const panels = draw(['Frequency', 'Power.Active.Import', 'Temperature', 'Voltage']);
    expect(panels.map((p) => p.axes.map((a) => a.unit))).toEqual([['Hz', 'kW'], ['°C', 'V']]);
    expect(draw(['Voltage']).map((p) => p.axes.length)).toEqual([1]);
    expect(draw([])).toEqual([]);
  });
  it('gives every chart the same grid, so the stacked x axes line up', () => {
    expect(PANEL_GRID.left).toBeGreaterThan(0);
    expect(PANEL_GRID.right).toBeGreaterThan(0);
  });
});
