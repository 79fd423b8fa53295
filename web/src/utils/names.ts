/**
 * Names shown for values devices report: OCPP 1.6 codes (error codes, connector, firmware and
 * diagnostics statuses) by locale maps keyed by the OCPP value (locales/../names.ts), data
 * items by the catalogue's label in the user's language with their unit, and action-log
 * locations. An unknown code is shown as it is, so nothing a device sends is hidden. Model
 * item names: the standard OCPP ones in the user's language, the others as typed.
 */
import type { Locale } from '../i18n';
import enUS from '../locales/en-US';
// Only the Chinese modules that hold the standard names below: the whole Chinese bundle loads
// on its own when the console is in Chinese (i18n.ts, loadLocale).
import zhNames from '../locales/zh-CN/names';
import zhOrg from '../locales/zh-CN/org';

type T = (key: string) => string;
type Exists = (key: string) => boolean;



export { ocppName, eventName, eventLabel, LEVEL_CODES, levelCode, type EventLabel, type OcppKind } from './eventNames';

/** A data item of the catalogue as the console names it. */
export interface CatalogueName {
  name: string;
  labelEn?: string | null;
  labelZh?: string | null;
  unit?: string | null;
}

/** "Temperature (°C)" / "温度 (°C)": the label in `locale` (else the other label, else the name) and the unit. */
export function measurandLabel(item: CatalogueName, locale: Locale, withUnit = true): string {
  const label = (locale === 'zh-CN' ? item.labelZh || item.labelEn : item.labelEn || item.labelZh) || item.name;
  return withUnit && item.unit ? `${label} (${item.unit})` : label;
}

/** A data group's name or description in `locale` (the English one when no Chinese one is set). */
export function localised(en: string, zh: string | null | undefined, locale: Locale): string {
  return locale === 'zh-CN' && zh ? zh : en;
}

/** The action log's location of an address: "localhost" and "LAN" are named, anything else (a region) is shown as it is. */
export function locationName(location: string | null | undefined, t: T, exists: Exists): string {
  if (!location) return '-';
  const key = `location.${location}`;
  return exists(key) ? t(key) : location;
}

const OCPP_UNITS: Record<string, string> = { Celsius: '°C', Fahrenheit: '°F', Percent: '%' };

/** An OCPP 1.6 UnitOfMeasure as shown: "Celsius" → "°C"; the others (kWh, V, A...) as they are. */
export function ocppUnit(unit: string | null | undefined): string {
  return unit ? (OCPP_UNITS[unit] ?? unit) : '';
}

// ---------------------------------------------------------------- model item names

/** The storage modes as enum labels of a model's "Operating mode" item (internal/demo storageParams). */
const ESS_MODE_LABEL_KEYS = ['selfConsumption', 'peakShaving', 'backup', 'manual'].map((m) => `ess.modeLabel.${m}`);

/**
 * Model items (config groups, config item and parameter names, control names, enum labels) are
 * the model admin's own text, shown as typed, except the standard names of OCPP 1.6 things: the
 * names the demo seeds in English or Chinese (internal/demo names.go), and any item named exactly
 * so, are shown in the user's language. Control names use the control types' names.
 */
const STANDARD_NAME_KEYS = [
  'ocpp.group.Core',
  'ocpp.group.Authorization',
  'ocpp.group.Identity',
  'ocpp.group.Metering',
  'ocpp.config.HeartbeatInterval',
  'ocpp.config.MeterValueSampleInterval',
  'ocpp.config.ConnectionTimeOut',
  'ocpp.config.LocalAuthorizeOffline',
  'ocpp.config.NumberOfConnectors',
  'ocpp.config.MeterValuesSampledData',
  'ocpp.param.connectorId',
  'ocpp.param.key',
  'ocpp.param.value',
  ...Array.from({ length: 32 }, (_, i) => `control.type.${i + 1}`),
  // a storage unit's configuration (issue 26)
  'ess.group.Storage',
  'ess.config.Mode',
  'ess.config.PeakLimitW',
  'ess.config.BackupReserveSoC',
  'ess.config.MinSoC',
  'ess.config.MaxSoC',
  ...ESS_MODE_LABEL_KEYS,
];
const STANDARD_LABEL_KEYS = ['com_yes', 'com_no', ...ESS_MODE_LABEL_KEYS];

/** Text of each key in every language → key. */
function textToKey(keys: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const dicts: Record<string, string>[] = [enUS, zhNames, zhOrg];
  for (const k of keys) for (const dict of dicts) if (dict[k]) out.set(dict[k], k);
  return out;
}

const STANDARD_NAMES = textToKey(STANDARD_NAME_KEYS);
const STANDARD_LABELS = textToKey(STANDARD_LABEL_KEYS);

/** A model item's group, item, parameter or control name as shown: a standard name in the UI language, any other text as it is. */
export function displayItemName(text: string | null | undefined, t: T): string {
  if (!text) return '';
  const key = STANDARD_NAMES.get(text.trim());
  return key ? t(key) : text;
}

/** A data range as shown: an enumeration's standard labels ("Yes"/"No", "是"/"否") in the UI language; other ranges as they are. */
export function displayRange(dataType: string, range: string | null | undefined, t: T): string {
  if (!range || dataType !== 'enum') return range ?? '';
  return range
    .split('\n')
    .map((line) => {
      const bar = line.indexOf('|');
      const key = bar > 0 ? STANDARD_LABELS.get(line.slice(0, bar).trim()) : undefined;
      return key ? t(key) + line.slice(bar) : line;
    })
    .join('\n');
}
