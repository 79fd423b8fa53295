/**
 * Pure logic of the device page's Storage tab (issue 26), tested in storage.test.ts: a storage
 * unit's latest values (the runtime detail, connector 0) read into numbers in base units (W, Wh,
 * V, A, %, °C), the battery's direction from its power's sign, and the figures as shown (kW with
 * one decimal, kWh). Names, units and signs are internal/ess/ess.go's (services/ess.ts).
 */
import { ESS, ESS_MODES, ESS_STATES, type EssMode, type EssState } from '../../../services/ess';
import { unitInfo } from '../../../utils/charts';

/** A latest value as the runtime detail gives it. */
export interface LatestValue {
  connectorId: number;
  name: string;
  value: string;
  unit?: string | null;
  time?: number;
}

/** What the tab shows of a unit: numbers in W, Wh, V, A, %, °C; undefined when not reported. */
export interface StorageSnapshot {
  soc?: number;
  soh?: number;
  batteryW?: number;
  batteryV?: number;
  batteryA?: number;
  cellVMin?: number;
  cellVMax?: number;
  cellTMin?: number;
  cellTMax?: number;
  /** PCS.State as reported ('' when not reported). */
  state: string;
  /** PCS.Mode as reported ('' when not reported). */
  mode: string;
  pcsW?: number;
  setpointW?: number;
  gridW?: number;
  loadW?: number;
  chargedWh?: number;
  dischargedWh?: number;
  capacityWh?: number;
  ratedW?: number;
  /** The newest time among the values (unix ms), 0 when none. */
  at: number;
}

/** A number in the base unit of its quantity: kW → W, kWh → Wh, °F → °C; others as they are. */
export function toBase(value: string | number, unit: string | null | undefined): number | undefined {
  const n = typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(n)) return undefined;
  const u = unitInfo(unit ?? undefined);
  if (u.quantity === 'fahrenheit') return ((n - 32) * 5) / 9;
  return n * u.factor;
}

/**
 * The unit's values: those of connector 0 (the whole unit), a value reported only on another
 * connector taken from there.
 */
export function readStorage(values: readonly LatestValue[] | null | undefined): StorageSnapshot {
  const byName = new Map<string, LatestValue>();
  for (const v of values ?? []) {
    const seen = byName.get(v.name);
    if (!seen || (v.connectorId === 0 && seen.connectorId !== 0)) byName.set(v.name, v);
  }
  const num = (name: string) => {
    const v = byName.get(name);
    return v ? toBase(v.value, v.unit) : undefined;
  };
  const text = (name: string) => byName.get(name)?.value.trim() ?? '';
  let at = 0;
  for (const v of byName.values()) if (Object.values(ESS).includes(v.name as never) && (v.time ?? 0) > at) at = v.time ?? 0;
  return {
    soc: num(ESS.soc),
    soh: num(ESS.soh),
    batteryW: num(ESS.batteryPower),
    batteryV: num(ESS.batteryVoltage),
    batteryA: num(ESS.batteryCurrent),
    cellVMin: num(ESS.cellVoltageMin),
    cellVMax: num(ESS.cellVoltageMax),
    cellTMin: num(ESS.cellTempMin),
    cellTMax: num(ESS.cellTempMax),
    state: text(ESS.pcsState),
    mode: text(ESS.pcsMode),
    pcsW: num(ESS.pcsPower),
    setpointW: num(ESS.pcsSetpoint),
    gridW: num(ESS.gridPower),
    loadW: num(ESS.loadPower),
    chargedWh: num(ESS.energyCharged),
    dischargedWh: num(ESS.energyDischarged),
    capacityWh: num(ESS.capacity),
    ratedW: num(ESS.ratedPower),
    at,
  };
}

/** Below this many watts either way a flow reads 0.0 kW: idle. */
export const IDLE_W = 50;

export type Direction = 'charging' | 'discharging' | 'idle';

/** The battery's direction from its power (+ discharge, - charge); idle below IDLE_W or unknown. */
export function batteryDirection(w: number | null | undefined): Direction {
  if (typeof w !== 'number' || !Number.isFinite(w) || Math.abs(w) < IDLE_W) return 'idle';
  return w > 0 ? 'discharging' : 'charging';
}

/** The battery's power: the DC value, else the converter's AC one (same sign). */
export const batteryPowerOf = (s: Pick<StorageSnapshot, 'batteryW' | 'pcsW'>): number | undefined => s.batteryW ?? s.pcsW;

/** kW with one decimal, the sign dropped when `abs` (arrows show the direction): "3.2 kW"; '-' when unknown. */
export function formatKw1(w: number | null | undefined, locale?: string, abs = false): string {
  if (typeof w !== 'number' || !Number.isFinite(w)) return '-';
  const kw = Math.round((abs ? Math.abs(w) : w) / 100) / 10;
  return `${new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(kw === 0 ? 0 : kw)} kW`;
}

/** kWh of a Wh value with one decimal: "1,234.5 kWh"; '-' when unknown. */
export function formatKwh(wh: number | null | undefined, locale?: string): string {
  if (typeof wh !== 'number' || !Number.isFinite(wh)) return '-';
  return `${new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(Math.round(wh / 100) / 10)} kWh`;
}

/** A number with its unit and up to `digits` decimals: "3.312 V"; '-' when unknown. */
export function formatUnit(v: number | null | undefined, unit: string, locale?: string, digits = 1): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '-';
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(v)} ${unit}`;
}

/** The spread of the cell voltages in mV (undefined unless both are reported). */
export function cellSpreadMv(min: number | undefined, max: number | undefined): number | undefined {
  return typeof min === 'number' && typeof max === 'number' ? Math.round((max - min) * 1000) : undefined;
}

/** SoC as a whole percentage 0-100 for the gauge (null when unknown). */
export function socPercent(soc: number | null | undefined): number | null {
  if (typeof soc !== 'number' || !Number.isFinite(soc)) return null;
  return Math.min(100, Math.max(0, Math.round(soc)));
}

/** Gauge colour: red below 10 %, orange below 20 %, green otherwise. */
export function socColor(percent: number | null): string | undefined {
  if (percent === null) return undefined;
  if (percent < 10) return '#ff4d4f';
  if (percent < 20) return '#fa8c16';
  return '#52c41a';
}

/** Tag colours of the converter's states. */
export const STATE_COLORS: Record<EssState, string> = { off: 'default', standby: 'blue', charging: 'green', discharging: 'orange', fault: 'red' };

/** A state the model knows (the tag's colour and name), else undefined (shown as reported). */
export const knownState = (s: string): EssState | undefined => ((ESS_STATES as readonly string[]).includes(s) ? (s as EssState) : undefined);
/** A mode the model knows, else undefined (shown as reported). */
export const knownMode = (m: string): EssMode | undefined => ((ESS_MODES as readonly string[]).includes(m) ? (m as EssMode) : undefined);

/** The setpoint form's kW as the W control type 29 sends (+ discharge, - charge); null when not a number. */
export function setpointW(kw: number | null | undefined): number | null {
  if (typeof kw !== 'number' || !Number.isFinite(kw)) return null;
  return Math.round(kw * 1000);
}

/** The setpoint's bounds in kW: the unit's rated power when known, else the server's 10 MW. */
export function setpointLimitKw(ratedW: number | null | undefined): number {
  return typeof ratedW === 'number' && ratedW > 0 ? Math.round(ratedW / 100) / 10 : 10_000;
}
