/**
 * The storage data model (issue 26), as internal/ess/ess.go spells it: the values a storage unit
 * (a BMS and a PCS behind a site agent) reports as its latest values on connector 0 and as
 * series, the converter's states and the operating modes. Signs: battery power and current are
 * positive while the battery discharges, negative while it charges; grid power is positive while
 * the site imports. The storage commands are control types 29-32 (services/fleet.ts CTL); the
 * alarm codes are utils/essAlarms.ts.
 */
import type { ControlParams } from './fleet';

/** Value names (units as stored: W, Wh, V, A, %, Celsius). */
export const ESS = {
  soc: 'Battery.SoC',
  soh: 'Battery.SoH',
  batteryPower: 'Battery.Power',
  batteryVoltage: 'Battery.Voltage',
  batteryCurrent: 'Battery.Current',
  cellVoltageMin: 'Cell.Voltage.Min',
  cellVoltageMax: 'Cell.Voltage.Max',
  cellTempMin: 'Cell.Temperature.Min',
  cellTempMax: 'Cell.Temperature.Max',
  pcsState: 'PCS.State',
  pcsMode: 'PCS.Mode',
  pcsPower: 'PCS.Power',
  pcsSetpoint: 'PCS.Setpoint',
  gridPower: 'Grid.Power',
  loadPower: 'Load.Power',
  energyCharged: 'Energy.Active.Import.Register',
  energyDischarged: 'Energy.Active.Export.Register',
  capacity: 'Battery.Capacity',
  ratedPower: 'PCS.RatedPower',
} as const;

export type EssValue = keyof typeof ESS;

/** The converter's states (PCS.State). */
export const ESS_STATES = ['off', 'standby', 'charging', 'discharging', 'fault'] as const;
export type EssState = (typeof ESS_STATES)[number];

/** The operating modes (PCS.Mode, control type 30). */
export const ESS_MODES = ['selfConsumption', 'peakShaving', 'backup', 'manual'] as const;
export type EssMode = (typeof ESS_MODES)[number];

/** The largest setpoint the server takes, either way (internal/fleet maxStoragePowerW: 10 MW). */
export const MAX_SETPOINT_W = 10_000_000;

/** params of control type 29: the setpoint in W (+ discharge, - charge), a whole number of watts. */
export const powerParams = (powerW: number): ControlParams => ({ powerW: Math.round(powerW) });
/** params of control type 30. */
export const modeParams = (mode: EssMode): ControlParams => ({ mode });
/** params of control type 31: true starts the converter, false stops it. */
export const runParams = (enable: boolean): ControlParams => ({ enable });
