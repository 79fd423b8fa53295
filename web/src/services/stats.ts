/**
 * Dashboards and statistics (docs/dashboards.md): the home dashboard, a site's statistics and
 * admins, the system dashboard. Every call is POST with a JSON body, times in unix ms, and is
 * limited to the caller's scope on the server.
 *
 * The answer types are spelled out (every field present, `null` where the server may say so);
 * `contract` below fails the type check when one names a field the OpenAPI contract
 * (api.gen.d.ts) does not have.
 */
import { post } from './request';
import type { ApiData } from './typings';

/** Bucket step of a range: hour up to 2 days, day up to 92 days, month beyond. */
export type StatsStep = 'hour' | 'day' | 'month';

/** A range [start, end) in unix ms; at most 366 days. */
export interface StatsRange {
  start: number;
  end: number;
}

// ---------------------------------------------------------------- home/overview

/** Devices by their open alarms (device list `alarmStatus=0|1|2`). */
export interface HealthCounts {
  noFault: number;
  partFault: number;
  fault: number;
}

/** Devices by status, `restarting` taken out of the others (device list `status=N&restarting=0`, or `restarting=1`). */
export interface ActivityCounts {
  idle: number;
  working: number;
  faulted: number;
  maintain: number;
  updating: number;
  restarting: number;
  offline: number;
  disabled: number;
}

/** One of the 10 models with most devices; `modelId` 0 sums the rest. */
export interface ModelCount {
  modelId: number;
  name: string;
  count: number;
}

/** Open alarms and faults by level: 0 OA, 1 MA, 2 CA. */
export interface AlarmLevelCounts {
  oa: number;
  ma: number;
  ca: number;
}

/** Open events by kind: 0 offline, 1 alarm, 2 fault, 3 unavailable. */
export interface FaultTypeCounts {
  offline: number;
  alarm: number;
  fault: number;
  unavailable: number;
}

/** Devices by site device category, the device type of their model (1 EV charger ... 6 V2G charger). */
export interface DeviceCategoryCounts {
  evCharger: number;
  acCharger: number;
  storageCharger: number;
  storageDevice: number;
  homeStorage: number;
  v2gCharger: number;
}

/** The categories in device-type order (1-6). */
export const DEVICE_CATEGORIES: readonly (keyof DeviceCategoryCounts)[] = ['evCharger', 'acCharger', 'storageCharger', 'storageDevice', 'homeStorage', 'v2gCharger'];

export interface HomeOverview {
  devices: number;
  health: HealthCounts;
  activity: ActivityCounts;
  byModel: ModelCount[];
  alarmLevels: AlarmLevelCounts;
  /** Devices with at least one open alarm or fault. */
  devicesInAlarm: number;
  faultTypes: FaultTypeCounts;
  categories: DeviceCategoryCounts;
}

// ---------------------------------------------------------------- home/faults

export type FaultKind = keyof FaultTypeCounts;
/** The event kinds in their code order (0 offline, 1 alarm, 2 fault, 3 unavailable). */
export const FAULT_KINDS: readonly FaultKind[] = ['offline', 'alarm', 'fault', 'unavailable'];
/** Levels in their code order (0 OA, 1 MA, 2 CA). */
export const ALARM_LEVEL_KEYS: readonly (keyof AlarmLevelCounts)[] = ['oa', 'ma', 'ca'];

export interface FaultBucket extends FaultTypeCounts {
  time: number;
}

export interface FaultSiteRank {
  siteId: number;
  name: string;
  customerName: string;
  count: number;
}

export interface FaultDeviceRank {
  deviceId: number;
  sn: string;
  name: string;
  siteId: number;
  siteName: string;
  count: number;
}

export interface HomeFaults {
  step: StatsStep;
  start: number;
  end: number;
  buckets: FaultBucket[];
  total: FaultTypeCounts;
  /** The top 10 sites by faults started in the range. */
  sites: FaultSiteRank[];
  /** The top 10 devices by faults started in the range. */
  devices: FaultDeviceRank[];
}

// ---------------------------------------------------------------- home/events

export interface HomeEventsInput {
  /** At most 50. */
  limit: number;
  /** 0 offline, 1 alarm, 2 fault, 3 unavailable; absent: all. */
  kinds?: number[];
}

/** One event (the same row as the device event list, dev/alarm/list). */
export interface HomeEvent {
  id: number;
  deviceId: number;
  sn: string;
  deviceName?: string;
  siteId?: number;
  siteName?: string;
  connectorId?: number;
  kind: number;
  level: number;
  code?: string;
  name?: string;
  /** The charger's own error code (shown beside the name). */
  vendorCode?: string;
  /** 0 open, 1 ended. */
  status: number;
  startedAt: number;
  endedAt?: number;
}

export interface HomeEvents {
  list: HomeEvent[];
}

// ---------------------------------------------------------------- site/stats and site/admins

export interface SiteStatsInput extends StatsRange {
  id: number;
}

export interface SiteFigures {
  sessions: number;
  energyWh: number;
  chargeMs: number;
  faults: number;
}

export interface SiteBucket extends SiteFigures {
  time: number;
}

export interface SiteStats {
  step: StatsStep;
  start: number;
  end: number;
  devices: number;
  /** Devices by status code ("0".."6"). */
  byStatus: Record<string, number>;
  /** Devices with an open alarm or fault. */
  devicesInAlarm: number;
  /** Open alarms and faults (a device can have several). */
  openAlarms: number;
  /** Share of device time in the range without an outage, 0..1; null when the site has no devices. */
  availability: number | null;
  buckets: SiteBucket[];
  total: SiteFigures;
  cumulative: SiteFigures & { since: number };
}

export interface SiteAdmin {
  id: number;
  userName: string;
  nickName: string;
  email: string;
  roleName: string;
  /** Whether the user gets the site's alarm mail. */
  receiver: boolean;
}

export interface SiteAdmins {
  list: SiteAdmin[];
}

// ---------------------------------------------------------------- system/overview

export interface SystemNode {
  id: string;
  connected: number;
  seenAt: number;
}

export interface SystemInfo {
  version: string;
  startedAt: number;
  uptimeMs: number;
  node: string;
  database: string;
  databaseBytes: number;
  connected: number;
  inboundPerSec: number;
  queueDepth: number;
  queueCapacity: number;
  nodes: SystemNode[];
}

export interface SystemOverview {
  users: { total: number; enabled: number; disabled: number; locked: number };
  /** Customers, the platform's own and the read-only ones among them. */
  customers: { total: number; platform: number; readOnly: number };
  models: { total: number; byType: { type: number; count: number }[] };
  devices: { total: number; online: number };
  /** The node's own figures: root and platform roles only, others get null. */
  system: SystemInfo | null;
}

// ---------------------------------------------------------------- calls

/** Query keys beside their service: roots to refresh, factories for one query. */
export const statsKeys = {
  home: ['home'] as const,
  homeOverview: ['home', 'overview'] as const,
  homeFaults: (start: number, end: number) => ['home', 'faults', start, end] as const,
  homeEvents: (limit: number) => ['home', 'events', limit] as const,
};

export const homeOverview = () => post<HomeOverview>('/api/auth/sys/home/overview', {});
export const homeFaults = (r: StatsRange) => post<HomeFaults>('/api/auth/sys/home/faults', r);
/** The newest events, without a total. */
export const homeEvents = (q: HomeEventsInput) => post<HomeEvents>('/api/auth/sys/home/events', q);
export const siteStats = (q: SiteStatsInput) => post<SiteStats>('/api/auth/sys/site/stats', q);
export const siteAdmins = (id: number) => post<SiteAdmins>('/api/auth/sys/site/admins', { id });
export const systemOverview = () => post<SystemOverview>('/api/auth/sys/system/overview', {});

// ---------------------------------------------------------------- contract check

/** true when every field of T, and of its nested objects, is one the contract C has. */
type Named<T, C> = [Exclude<keyof T, keyof NonNullable<C>>] extends [never] ? (false extends Nested<T, NonNullable<C>> ? false : true) : false;
type Nested<T, C> = {
  [K in keyof T & keyof C]: NonNullable<T[K]> extends (infer U)[]
    ? NonNullable<C[K]> extends (infer V)[]
      ? Named<U, V>
      : false
    : NonNullable<T[K]> extends object
      ? Named<NonNullable<T[K]>, NonNullable<C[K]>>
      : true;
}[keyof T & keyof C];

export const contract: [
  Named<HomeOverview, ApiData<'/api/auth/sys/home/overview', 'post'>>,
  Named<HomeFaults, ApiData<'/api/auth/sys/home/faults', 'post'>>,
  Named<HomeEvents, ApiData<'/api/auth/sys/home/events', 'post'>>,
  Named<SiteStats, ApiData<'/api/auth/sys/site/stats', 'post'>>,
  Named<SiteAdmins, ApiData<'/api/auth/sys/site/admins', 'post'>>,
  Named<SystemOverview, ApiData<'/api/auth/sys/system/overview', 'post'>>,
] = [true, true, true, true, true, true];
