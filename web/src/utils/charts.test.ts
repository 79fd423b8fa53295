import { describe, expect, it } from 'vitest';
import { axisTimeFormat, chartAxes, chooseRange, defaultStep, liveTickMs, rangeAt, showDots, tickOf, unitInfo } from './charts';
import { MONTH_STEP } from './fleet';

const H = 3600_000;
const pts = (...v: number[]) => v.map((avg, i) => ({ time: i * 60_000, avg }));

describe('chart axes by unit', () => {
  it('puts power, SoC and temperature on one axis each, with their units', () => {
    const units: Record<string, string> = { 'Power.Active.Import': 'W', 'Power.Offered': 'W', SoC: 'Percent', Temperature: 'Celsius' };
    const { axes, series } = chartAxes(
      [
        { name: 'Power.Active.Import', points: pts(3500, 7200) },
        { name: 'SoC', points: pts(40, 41) },
        { name: 'Power.Offered', points: pts(7400) },
        { name: 'Temperature', points: pts(31.5) },
      ],
      (n) => units[n],
    );
    expect(axes).toEqual([
      { unit: 'kW', names: ['Power.Active.Import', 'Power.Offered'] },
      { unit: '%', names: ['SoC'] },
      { unit: '°C', names: ['Temperature'] },
    ]);
    expect(series.map((s) => s.axis)).toEqual([0, 1, 0, 2]);
    expect(series[0].points).toEqual([
      [0, 3.5],
      [60_000, 7.2],
    ]);
  });

  it('draws large power in kW and converts kW and W onto the same axis', () => {
    const units: Record<string, string> = { 'Power.Active.Import': 'W', 'Power.Offered': 'kW' };
    const { axes, series } = chartAxes(
      [
        { name: 'Power.Active.Import', points: pts(48_250, 50_000) },
        { name: 'Power.Offered', points: pts(60) },
      ],
      (n) => units[n],
    );
    expect(axes).toEqual([{ unit: 'kW', names: ['Power.Active.Import', 'Power.Offered'] }]);
    expect(series[0].points.map((p) => p[1])).toEqual([48.25, 50]);
    expect(series[1].points.map((p) => p[1])).toEqual([60]);
  });

  it('draws stored Wh in kWh and W in kW, small values too', () => {
    const { axes, series } = chartAxes(
      [
        { name: 'Energy.Active.Import.Register', points: pts(12_345, 12_400) },
        { name: 'Power.Active.Import', points: pts(3_700) },
      ],
      (n) => (n.startsWith('Energy') ? 'Wh' : 'W'),
    );
    expect(axes).toEqual([
      { unit: 'kWh', names: ['Energy.Active.Import.Register'] },
      { unit: 'kW', names: ['Power.Active.Import'] },
    ]);
    expect(series[0].points.map((p) => p[1])).toEqual([12.345, 12.4]);
    expect(series[1].points[0][1]).toBe(3.7);
  });

  it('gives unknown units their own axis and plain numbers one without a unit', () => {
    const units: Record<string, string> = { A: 'widgets', B: '' };
    const { axes } = chartAxes(
      [
        { name: 'A', points: pts(1) },
        { name: 'B', points: pts(2) },
        { name: 'C', points: [] },
      ],
      (n) => units[n],
    );
    expect(axes).toEqual([
      { unit: 'widgets', names: ['A'] },
      { unit: '', names: ['B', 'C'] },
    ]);
  });

  it('reads unit spellings of the catalogue and of OCPP', () => {
    expect(unitInfo('Percent').label).toBe('%');
    expect(unitInfo('celsius').label).toBe('°C');
    expect(unitInfo('kWh')).toEqual({ quantity: 'energy', label: 'kWh', factor: 1000 });
    expect(unitInfo(undefined).quantity).toBe('none');
  });
});

describe('chart range and step', () => {
  it('a range ending now follows the clock; one ending earlier stays', () => {
    const now = 1_760_000_000_000;
    const live = chooseRange(now - 24 * H, now - 5_000, now);
    expect(live).toEqual({ kind: 'live', span: 24 * H + 0 });
    expect(rangeAt(live, now + 10 * 60_000)).toEqual([now + 10 * 60_000 - 24 * H, now + 10 * 60_000]);
    const fixed = chooseRange(now - 48 * H, now - 24 * H, now);
    expect(rangeAt(fixed, now + H)).toEqual([now - 48 * H, now - 24 * H]);
  });

  it('a range ending in the future is live too', () => {
    const now = 1_760_000_000_000;
    expect(chooseRange(now - H, now + H, now).kind).toBe('live');
  });

  it('the live range moves once a tick: a step, at least a minute, at most 15 minutes', () => {
    expect(liveTickMs(1)).toBe(60_000);
    expect(liveTickMs(5)).toBe(5 * 60_000);
    expect(liveTickMs(1440)).toBe(15 * 60_000);
    expect(tickOf(5 * 60_000 + 1234, 60_000)).toBe(5 * 60_000);
  });

  it('the default step gives a line, not a dot: 24 h → 5 min, 7 days → 1 h, a year → 1 day', () => {
    expect(defaultStep(24 * H)).toBe(5);
    expect((24 * 60) / defaultStep(24 * H)).toBeGreaterThanOrEqual(100);
    expect(defaultStep(7 * 24 * H)).toBe(60);
    expect(defaultStep(365 * 24 * H)).toBe(1440);
    expect(defaultStep(20 * 365 * 24 * H)).toBe(MONTH_STEP);
    expect(defaultStep(0)).toBe(1);
  });

  it('shows dots only for few points, and always for a single one', () => {
    expect(showDots(1)).toBe(true);
    expect(showDots(288)).toBe(false);
  });

  it('labels the x axis by step and range', () => {
    expect(axisTimeFormat(MONTH_STEP, 365 * 24 * H)).toBe('YYYY-MM');
    expect(axisTimeFormat(5, 24 * H)).toBe('MM-DD HH:mm');
    expect(axisTimeFormat(60, 30 * 24 * H)).toBe('MM-DD');
  });
});
