/**
 * Smart charging and site load management (issue 25): a site's grid limit and its plan
 * (site/power, site/power/history), a charger's part in it (dev/power), the charging profiles
 * chargeops set on a charger (dev/profile/list). Setting and clearing profiles and reading the
 * composite schedule go through control/send (control types 26-28) like every operation.
 * Answers are the generated OpenAPI types; the profile sent (its purpose, kind and unit as
 * unions) and the composite schedule (a command's answer, JSON text) are typed here.
 */
import { get, post, RequestError, type RequestOptions } from './request';
import type { ControlParams } from './fleet';
import type { ApiData } from './typings';

export type SitePower = ApiData<'/api/auth/sys/site/power', 'get'>;
/** A site's grid limit and load management setting (exactly one of limitKw / limitA > 0 when enabled). */
export type SitePowerSetting = SitePower['power'];
/** A time-of-day window of a site's limit: from/to "HH:mm", days 1 (Mon) .. 7 (empty: every day). */
export type PowerWindow = SitePowerSetting['schedule'][number];
/** A session in the plan; message is an i18n key (err.sc_rejected) or a text. */
export type ChargerAllocation = SitePower['chargers'][number];
/** One minute of a site's power. */
export type PowerSample = ApiData<'/api/auth/sys/site/power/history', 'get'>[number];
/** A charger's part in its site's plan. */
export type DevicePower = ApiData<'/api/auth/sys/dev/power', 'get'>;
/** A profile on a charger as chargeops set it (source operator | load): state 0 sent, 1 installed, 2 refused. */
export type ProfileRow = ApiData<'/api/auth/sys/dev/profile/list', 'get'>[number];

/** Allocation states of a charger in the plan: 0 sending, 1 applied, 2 refused, 3 offline. */
export const ALLOC_STATES = [0, 1, 2, 3] as const;
export const ALLOC_COLORS: Record<number, string> = { 0: 'processing', 1: 'success', 2: 'error', 3: 'default' };

export type ProfilePurpose = 'ChargePointMax' | 'TxDefault' | 'Tx';
export type ProfileKind = 'Absolute' | 'Recurring' | 'Relative';
export type Recurrency = 'Daily' | 'Weekly';
export type RateUnit = 'A' | 'W';

export interface SchedulePeriod {
  start: number;
  limit: number;
  phases?: number;
}

export interface ChargingSchedule {
  start?: number;
  duration?: number;
  unit: RateUnit;
  minRate?: number;
  periods: SchedulePeriod[];
}

export interface ChargingProfile {
  id: number;
  stackLevel: number;
  purpose: ProfilePurpose;
  kind: ProfileKind;
  recurrency?: Recurrency;
  validFrom?: number;
  validTo?: number;
  transactionId?: number;
  schedule: ChargingSchedule;
}

export const PROFILE_STATE_COLORS: Record<number, string> = { 0: 'processing', 1: 'success', 2: 'error' };

/** GetCompositeSchedule's answer (the command's `answer`, JSON). */
export interface CompositeSchedule {
  connectorId: number;
  start: number;
  duration: number;
  unit: string;
  periods: SchedulePeriod[];
}

export const PURPOSES: ProfilePurpose[] = ['ChargePointMax', 'TxDefault', 'Tx'];
export const KINDS: ProfileKind[] = ['Absolute', 'Recurring', 'Relative'];
export const RECURRENCIES: Recurrency[] = ['Daily', 'Weekly'];

/** Bounds the server checks (internal/loadmgmt/settings.go, internal/smartcharging/profile.go). */
export const POWER_LIMITS = {
  maxWindows: 12,
  maxLimitKw: 100000,
  maxLimitA: 10000,
  maxSiteMinA: 80,
  maxDeviceA: 500,
  maxPriority: 10,
  maxEditLevel: 5,
  /** Operator profile ids: 1..899999 (above: the load manager's). */
  maxOperatorId: 899999,
  maxStackLevel: 100,
  maxPeriods: 48,
  maxPeriodA: 1000,
  maxPeriodW: 2_000_000,
  maxCompositeSeconds: 604800,
} as const;

/** Query keys beside their service. */
export const powerKeys = {
  site: (siteId: number) => ['site/power', siteId] as const,
  history: (siteId: number) => ['site/power/history', siteId] as const,
  historyOf: (siteId: number, span: number) => ['site/power/history', siteId, span] as const,
  device: (deviceId: number) => ['dev/power', deviceId] as const,
  profiles: (deviceId: number) => ['dev/profile/list', deviceId] as const,
};

export const getSitePower = (siteId: number) => get<SitePower>('/api/auth/sys/site/power', { siteId });
/** Saves a site's setting; silent: the form shows the server's refusal on its field. */
export const setSitePower = (p: SitePowerSetting, o?: RequestOptions) => post<null>('/api/auth/sys/site/power', p, { silent: true, ...o });
export const getSitePowerHistory = (siteId: number, start: number, end: number) => get<PowerSample[]>('/api/auth/sys/site/power/history', { siteId, start, end });
export const getDevicePower = (deviceId: number) => get<DevicePower>('/api/auth/sys/dev/power', { deviceId });
export const setDevicePower = (p: DevicePower, o?: RequestOptions) => post<null>('/api/auth/sys/dev/power', p, { silent: true, ...o });
export const listProfiles = (deviceId: number) => get<ProfileRow[]>('/api/auth/sys/dev/profile/list', { deviceId });

/** W as kW with up to 2 decimals in the UI language: "7.4 kW"; missing or not finite: "-". */
export function formatKw(w: number | null | undefined, locale?: string): string {
  if (typeof w !== 'number' || !Number.isFinite(w)) return '-';
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(w / 1000)} kW`;
}

/** A current in A with up to 1 decimal: "16 A". */
export function formatA(a: number | null | undefined, locale?: string): string {
  if (typeof a !== 'number' || !Number.isFinite(a)) return '-';
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(a)} A`;
}

/** A state message: an i18n key the console knows (err.sc_rejected) in the UI language, else the text itself. */
export function messageText(m: string | null | undefined, t: (k: string) => string, exists: (k: string) => boolean): string {
  if (!m) return '';
  return /^[a-z][\w.]*$/i.test(m) && m.includes('.') && exists(m) ? t(m) : m;
}

/** A form field the server may name in a 10001 refusal: its form path, the server's raw names and the label shown. */
export interface ServerField {
  name: (string | number)[] | string;
  /** The server's field names (as it writes them when it has no label), e.g. params.profile.validFrom. */
  raw?: string[];
  /** The field's label in the UI language (the server's label for it, in the same words). */
  label?: string;
}

/**
 * The form field a 10001 message names: the server writes "{field} is invalid" with the field's
 * label in the request's language (the console's labels use the same words), or its raw name
 * when it has no label. The longest match at the start of the message wins; null if none.
 */
export function fieldOfMessage(message: string, fields: ServerField[]): ServerField['name'] | null {
  let best: { name: ServerField['name']; len: number } | null = null;
  for (const f of fields) {
    for (const s of [...(f.raw ?? []), ...(f.label ? [f.label] : [])]) {
      if (s && message.startsWith(s) && (!best || s.length > best.len)) best = { name: f.name, len: s.length };
    }
  }
  // indexed raw names: schedule[2].from
  const m = /^([A-Za-z.]+)\[(\d+)\]\.([A-Za-z]+)/.exec(message);
  if (m) {
    for (const f of fields) {
      if ((f.raw ?? []).includes(`${m[1]}[].${m[3]}`) && Array.isArray(f.name)) {
        const idx = Number(m[2]);
        const name = f.name.map((p) => (p === '[]' ? idx : p));
        if (!best || m[0].length > best.len) best = { name, len: m[0].length };
      }
    }
  }
  return best?.name ?? null;
}

/** The code and message of a refused request (10001: a field). */
export function refusalOf(e: unknown): { code?: number; message: string } | null {
  if (e instanceof RequestError && e.kind === 'business') return { code: e.code, message: e.message };
  return null;
}

/** params of control type 26 (SetChargingProfile): connector 0 = the whole charger (ChargePointMax only there). */
export interface SetProfileParams {
  connectorId: number;
  profile: ChargingProfile;
}
/** params of control type 27 (ClearChargingProfile): by id, or by connector / purpose / stack level; none: all. */
export interface ClearProfileParams {
  clear?: { id: number } | { connectorId?: number; purpose?: ProfilePurpose; stackLevel?: number };
}
/** params of control type 28 (GetCompositeSchedule): duration 1-604800 s; '' = the charger's unit. */
export interface CompositeParams {
  connectorId: number;
  duration: number;
  rateUnit: RateUnit | '';
}

/** The params of control types 26-28 as control/send's body (FleetParams) takes them. */
export const scParams = (p: SetProfileParams | ClearProfileParams | CompositeParams): ControlParams => p;
