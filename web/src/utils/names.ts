/**
 * Names shown for values devices report: OCPP 1.6 codes (error codes, connector, firmware and
 * diagnostics statuses) by locale maps keyed by the OCPP value (locales/../names.ts), data
 * items by the catalogue's label in the user's language with their unit, and action-log
 * locations. An unknown code is shown as it is, so nothing a device sends is hidden.
 */
import type { Locale } from '../i18n';

type T = (key: string) => string;
type Exists = (key: string) => boolean;

export type OcppKind = 'error' | 'connector' | 'firmware' | 'diagnostics';

/** The name of an OCPP value of `kind` in the UI language; the code itself when unknown or empty ('-'). */
export function ocppName(kind: OcppKind, code: string | null | undefined, t: T, exists: Exists): string {
  if (!code) return '-';
  const key = `ocpp.${kind}.${code}`;
  return exists(key) ? t(key) : code;
}

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
