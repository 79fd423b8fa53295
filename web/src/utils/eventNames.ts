/**
 * One naming of events and alarms on every screen (issue 30 item 4): an OCPP error code or
 * connector status by its localised name, anything else (a vendor's own alarm) as the device or
 * model named it, with the code kept beside; levels by one short code (OA/MA/CA) in every
 * language. Kept apart from utils/names so that screens showing only events (the message bell,
 * home) do not load the model-item names. A storage unit's BMS and PCS alarms (essAlarms.ts) are
 * named in the UI language given as `locale`.
 */
import { essAlarmName } from './essAlarms';

type T = (key: string) => string;
type Exists = (key: string) => boolean;

export type OcppKind = 'error' | 'connector' | 'firmware' | 'diagnostics';

/** The name of an OCPP value of `kind` in the UI language; the code itself when unknown or empty ('-'). */
export function ocppName(kind: OcppKind, code: string | null | undefined, t: T, exists: Exists): string {
  if (!code) return '-';
  const key = `ocpp.${kind}.${code}`;
  return exists(key) ? t(key) : code;
}

/**
 * An event's name: an OCPP error code or connector status by its localised name, a storage
 * unit's BMS/PCS alarm by its name in `locale` (the UI language), else the name stored with the
 * event (a vendor alarm as the model names it), else the code.
 */
export function eventName(code: string | null | undefined, stored: string | null | undefined, t: T, exists: Exists, locale?: string): string {
  if (code) {
    for (const kind of ['error', 'connector'] as const) {
      const key = `ocpp.${kind}.${code}`;
      if (exists(key)) return t(key);
    }
    const ess = essAlarmName(code, locale);
    if (ess) return ess;
  }
  return stored || code || '-';
}

/** An event as shown: its name, and the code kept beside it ('' when the name already is the code). */
export interface EventLabel {
  name: string;
  code: string;
}

/** The vendor's own code wins over the OCPP code; a code is never shown twice. */
export function eventLabel(
  code: string | null | undefined,
  stored: string | null | undefined,
  vendorCode: string | null | undefined,
  t: T,
  exists: Exists,
  locale?: string,
): EventLabel {
  const name = eventName(code, stored, t, exists, locale);
  const beside = vendorCode || code || '';
  return { name, code: beside === name ? '' : beside };
}

/** The short level codes of alarms and faults, the same in every language. */
export const LEVEL_CODES = ['OA', 'MA', 'CA'] as const;

/** A level 0-2 as its short code ("MA"); the number itself when out of range. */
export function levelCode(level: number): string {
  return LEVEL_CODES[level] ?? String(level);
}
