/**
 * How the device page shows meter values (docs/gateway.md, "Meter values"). The server stores
 * energy in Wh and power in W (var, varh, VA alike) and names a series by measurand, phase and
 * location ("Voltage.L1-N", "Temperature@Body"); the page shows energy in kWh and power in kW,
 * with the unit, and names a series by the catalogue's label of its measurand, its phase and
 * its location in the user's language (texts: locales/domains/meter.ts, registered by the
 * components that use them). Pure functions, tested in meterFormat.test.ts.
 */
/** OCPP 1.6 phases a series name may carry after its measurand (fleet.SeriesName). */
const PHASES = ['L1-N', 'L2-N', 'L3-N', 'L1-L2', 'L2-L3', 'L3-L1', 'L1', 'L2', 'L3', 'N'];
const PHASE = new RegExp(`\\.(${PHASES.join('|')})$`);

export interface SeriesParts {
  measurand: string;
  phase: string;
  /** '' for the Outlet, OCPP's default location */
  location: string;
}

/** "Power.Active.Import.L2@Inlet" → measurand Power.Active.Import, phase L2, location Inlet. */
export function seriesParts(name: string): SeriesParts {
  let rest = name;
  let location = '';
  const at = rest.lastIndexOf('@');
  if (at > 0) {
    location = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  const m = PHASE.exec(rest);
  return m ? { measurand: rest.slice(0, m.index), phase: m[1], location } : { measurand: rest, phase: '', location };
}

/** Stored units shown in their kilo unit (the value divided by 1000). */
const KILO: Record<string, string> = { Wh: 'kWh', W: 'kW', varh: 'kvarh', var: 'kvar', VA: 'kVA' };
/** OCPP spellings shown as symbols. */
const SYMBOL: Record<string, string> = { Celsius: '°C', Fahrenheit: '°F', Percent: '%' };

export interface DisplayUnit {
  /** the unit as shown ('' for none) */
  label: string;
  /** stored value / divisor = shown value */
  divisor: number;
}

/** The shown unit of a stored one: Wh → kWh (÷1000), W → kW (÷1000), Celsius → °C, others as they are. */
export function displayUnit(stored: string | null | undefined): DisplayUnit {
  const u = (stored ?? '').trim();
  if (KILO[u]) return { label: KILO[u], divisor: 1000 };
  return { label: SYMBOL[u] ?? u, divisor: 1 };
}

/** A shown number: at most 3 decimals, no trailing zeros. */
export function shownNumber(v: number): string {
  return String(Math.round(v * 1000) / 1000);
}

/** A stored value with its stored unit as shown: "12345" Wh → "12.345 kWh"; a text that is no number stays as it is, an empty one is ''. */
export function formatMeterValue(value: string, stored: string | null | undefined): string {
  if (value.trim() === '') return '';
  const u = displayUnit(stored);
  const n = Number(value);
  const shown = Number.isFinite(n) ? shownNumber(n / u.divisor) : value;
  return u.label ? `${shown} ${u.label}` : shown;
}

/**
 * The legend name of a series: the catalogue's label of its measurand (label), then its phase,
 * then its location in the user's language: "Voltage L1-N", "温度 · 机身".
 */
export function seriesDisplayName(name: string, label: (measurand: string) => string, t: (key: string) => string): string {
  const p = seriesParts(name);
  let s = label(p.measurand);
  if (p.phase) s += ` ${p.phase}`;
  if (p.location) {
    const key = `meter.location.${p.location}`;
    const shown = t(key);
    s += ` · ${shown === key ? p.location : shown}`;
  }
  return s;
}

/** The stored unit of a latest value: its own, else Wh for an energy (OCPP's default unit), else the catalogue's. */
export function storedUnit(name: string, unit: string | null | undefined, catalogueUnit: (measurand: string) => string | undefined): string {
  if (unit) return unit;
  const { measurand } = seriesParts(name);
  if (measurand.startsWith('Energy.')) return 'Wh';
  return catalogueUnit(measurand) ?? '';
}
