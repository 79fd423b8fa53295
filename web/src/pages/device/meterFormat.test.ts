import { describe, expect, it } from 'vitest';
import enUS from '../../locales/en-US/meter';
import zhCN from '../../locales/zh-CN/meter';
import { displayUnit, formatMeterValue, seriesDisplayName, seriesParts, storedUnit } from './meterFormat';

const tOf = (texts: Record<string, string>) => (k: string) => texts[k] ?? k;

describe('meter values as shown', () => {
  it('shows stored Wh in kWh and W in kW, with the unit', () => {
    expect(formatMeterValue('12345', 'Wh')).toBe('12.345 kWh');
    expect(formatMeterValue('12400', 'Wh')).toBe('12.4 kWh');
    expect(formatMeterValue('7200', 'W')).toBe('7.2 kW');
    expect(formatMeterValue('1500', 'varh')).toBe('1.5 kvarh');
    expect(formatMeterValue('11000', 'VA')).toBe('11 kVA');
    expect(displayUnit('Wh')).toEqual({ label: 'kWh', divisor: 1000 });
  });

  it('keeps other units, with their symbols, and texts that are no number', () => {
    expect(formatMeterValue('31.5', 'Celsius')).toBe('31.5 °C');
    expect(formatMeterValue('88', 'Fahrenheit')).toBe('88 °F');
    expect(formatMeterValue('230.1', 'V')).toBe('230.1 V');
    expect(formatMeterValue('55', 'Percent')).toBe('55 %');
    expect(formatMeterValue('3', '')).toBe('3');
    expect(formatMeterValue('Installed', '')).toBe('Installed');
    expect(formatMeterValue('', 'Wh')).toBe('');
  });
});

describe('series names', () => {
  it('splits measurand, phase and location', () => {
    expect(seriesParts('Voltage.L1-N')).toEqual({ measurand: 'Voltage', phase: 'L1-N', location: '' });
    expect(seriesParts('Temperature@Body')).toEqual({ measurand: 'Temperature', phase: '', location: 'Body' });
    expect(seriesParts('Power.Active.Import.L2@Inlet')).toEqual({ measurand: 'Power.Active.Import', phase: 'L2', location: 'Inlet' });
    expect(seriesParts('Energy.Active.Import.Register')).toEqual({ measurand: 'Energy.Active.Import.Register', phase: '', location: '' });
  });

  it('names a series by its label, phase and location in the user language', () => {
    const zhLabel = (m: string) => ({ Voltage: '电压', Temperature: '温度' })[m] ?? m;
    expect(seriesDisplayName('Voltage.L1', zhLabel, tOf(zhCN))).toBe('电压 L1');
    expect(seriesDisplayName('Temperature@Body', zhLabel, tOf(zhCN))).toBe('温度 · 机身');
    expect(seriesDisplayName('Temperature@Body', (m) => m, tOf(enUS))).toBe('Temperature · Body');
    expect(seriesDisplayName('Temperature', zhLabel, tOf(zhCN))).toBe('温度');
    expect(seriesDisplayName('Vendor.Thing@Somewhere', (m) => m, tOf(enUS))).toBe('Vendor.Thing · Somewhere');
  });
});

describe('stored units', () => {
  const catalogue = (m: string) => ({ 'Energy.Active.Import.Register': 'kWh', SoC: '%' })[m];
  it('takes the value own unit, else Wh for an energy, never the catalogue kWh for a stored Wh', () => {
    expect(storedUnit('Energy.Active.Import.Register', 'Wh', catalogue)).toBe('Wh');
    expect(storedUnit('Energy.Active.Import.Register', '', catalogue)).toBe('Wh');
    expect(formatMeterValue('12345', storedUnit('Energy.Active.Import.Register', '', catalogue))).toBe('12.345 kWh');
    expect(storedUnit('SoC', '', catalogue)).toBe('%');
    expect(storedUnit('Temperature@Body', 'Celsius', catalogue)).toBe('Celsius');
  });
});
