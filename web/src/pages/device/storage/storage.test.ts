import { describe, expect, it } from 'vitest';
import { powerParams, modeParams, runParams } from '../../../services/ess';
import {
  batteryDirection,
  batteryPowerOf,
  cellSpreadMv,
  formatKw1,
  formatKwh,
  formatUnit,
  knownMode,
  knownState,
  readStorage,
  setpointLimitKw,
  setpointW,
  socColor,
  socPercent,
  toBase,
} from './storage';

const v = (name: string, value: string, unit = '', connectorId = 0, time = 1000) => ({ name, value, unit, connectorId, time });

describe('storage values', () => {
  it('reads the unit values of connector 0 in base units', () => {
    const s = readStorage([
      v('Battery.SoC', '76.4', 'Percent'),
      v('Battery.SoH', '98', 'Percent'),
      v('Battery.Power', '-3500', 'W', 0, 2000),
      v('Battery.Voltage', '768.2', 'V'),
      v('Battery.Current', '-4.6', 'A'),
      v('Cell.Voltage.Min', '3.301', 'V'),
      v('Cell.Voltage.Max', '3.322', 'V'),
      v('Cell.Temperature.Min', '21.5', 'Celsius'),
      v('Cell.Temperature.Max', '77', 'Fahrenheit'),
      v('PCS.State', 'charging'),
      v('PCS.Mode', 'selfConsumption'),
      v('Grid.Power', '5.2', 'kW'),
      v('Load.Power', '1700', 'W'),
      v('Energy.Active.Import.Register', '1234567', 'Wh'),
      v('Energy.Active.Export.Register', '987.6', 'kWh'),
      v('Battery.Capacity', '10000', 'Wh'),
      v('PCS.RatedPower', '5000', 'W'),
      v('Power.Active.Import', '1', 'W', 0, 9999), // not the model's: no part of the time
    ]);
    expect(s).toMatchObject({
      soc: 76.4,
      soh: 98,
      batteryW: -3500,
      batteryV: 768.2,
      batteryA: -4.6,
      cellVMin: 3.301,
      cellVMax: 3.322,
      cellTMin: 21.5,
      cellTMax: 25,
      state: 'charging',
      mode: 'selfConsumption',
      gridW: 5200,
      loadW: 1700,
      chargedWh: 1234567,
      dischargedWh: 987600,
      capacityWh: 10000,
      ratedW: 5000,
      at: 2000,
    });
    expect(s.pcsW).toBeUndefined();
  });

  it("prefers connector 0, takes another connector's value when 0 has none, skips empty and bad numbers", () => {
    const s = readStorage([v('Battery.SoC', '50', '%', 1), v('Battery.SoC', '60', '%', 0), v('Battery.SoH', '90', '%', 1), v('Grid.Power', ''), v('Load.Power', 'n/a')]);
    expect(s.soc).toBe(60);
    expect(s.soh).toBe(90);
    expect(s.gridW).toBeUndefined();
    expect(s.loadW).toBeUndefined();
    expect(readStorage(undefined)).toMatchObject({ state: '', mode: '', at: 0 });
  });

  it('converts units to their base', () => {
    expect(toBase('2.5', 'kW')).toBe(2500);
    expect(toBase(3, 'kWh')).toBe(3000);
    expect(toBase('212', 'Fahrenheit')).toBe(100);
    expect(toBase('7', undefined)).toBe(7);
    expect(toBase(' ', 'W')).toBeUndefined();
  });
});

describe('battery power: sign and label', () => {
  it('is discharging when positive, charging when negative, idle near 0 or unknown', () => {
    expect(batteryDirection(3000)).toBe('discharging');
    expect(batteryDirection(-3000)).toBe('charging');
    expect(batteryDirection(49)).toBe('idle');
    expect(batteryDirection(-49)).toBe('idle');
    expect(batteryDirection(50)).toBe('discharging');
    expect(batteryDirection(undefined)).toBe('idle');
  });
  it("falls back to the converter's power", () => {
    expect(batteryPowerOf({ batteryW: undefined, pcsW: -1200 })).toBe(-1200);
    expect(batteryPowerOf({ batteryW: 300, pcsW: -1200 })).toBe(300);
  });
  it('shows kW with one decimal, the sign dropped where the direction says it', () => {
    expect(formatKw1(-3456, 'en-US')).toBe('-3.5 kW');
    expect(formatKw1(-3456, 'en-US', true)).toBe('3.5 kW');
    expect(formatKw1(-20, 'en-US')).toBe('0.0 kW');
    expect(formatKw1(12_345_000, 'en-US')).toBe('12,345.0 kW');
    expect(formatKw1(undefined)).toBe('-');
    expect(formatKwh(1_234_567, 'en-US')).toBe('1,234.6 kWh');
    expect(formatKwh(undefined)).toBe('-');
    expect(formatUnit(3.3014, 'V', 'en-US', 3)).toBe('3.301 V');
    expect(formatUnit(undefined, 'V')).toBe('-');
  });
});

describe('gauge, states and modes', () => {
  it('bounds SoC to 0-100 and colours it', () => {
    expect(socPercent(76.6)).toBe(77);
    expect(socPercent(104)).toBe(100);
    expect(socPercent(undefined)).toBeNull();
    expect(socColor(5)).toBe('#ff4d4f');
    expect(socColor(15)).toBe('#fa8c16');
    expect(socColor(50)).toBe('#52c41a');
    expect(socColor(null)).toBeUndefined();
  });
  it('knows the states and modes of the model, nothing else', () => {
    expect(knownState('fault')).toBe('fault');
    expect(knownState('Fault')).toBeUndefined();
    expect(knownMode('peakShaving')).toBe('peakShaving');
    expect(knownMode('eco')).toBeUndefined();
  });
  it('gives the cell voltage spread in mV', () => {
    expect(cellSpreadMv(3.301, 3.322)).toBe(21);
    expect(cellSpreadMv(undefined, 3.3)).toBeUndefined();
  });
});

describe('commands', () => {
  it('sends the kW setpoint in W: + discharge, - charge', () => {
    expect(setpointW(2.5)).toBe(2500);
    expect(setpointW(-1.1)).toBe(-1100);
    expect(setpointW(null)).toBeNull();
    expect(powerParams(-1100.4)).toEqual({ powerW: -1100 });
    expect(modeParams('backup')).toEqual({ mode: 'backup' });
    expect(runParams(false)).toEqual({ enable: false });
  });
  it('bounds the setpoint by the rated power, else by 10 MW', () => {
    expect(setpointLimitKw(5000)).toBe(5);
    expect(setpointLimitKw(undefined)).toBe(10_000);
    expect(setpointLimitKw(0)).toBe(10_000);
  });
});
