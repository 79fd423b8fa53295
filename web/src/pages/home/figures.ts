/**
 * The home dashboard's figures as chart slices, and the list behind each figure
 * (docs/dashboards.md): device slices open the device list filtered, event slices and bars
 * open the event list (a drawer) filtered. Pure, tested in figures.test.ts.
 */
import type { ActivityCounts, FaultKind, HealthCounts, HomeOverview } from '../../services/stats';
import { ALARM_LEVEL_KEYS, FAULT_KINDS } from '../../services/stats';
import type { PieSlice } from '../../components/charts';

type T = (key: string, o?: Record<string, unknown>) => string;

/** Device status codes (device list `status=N`) of the activity keys; `restarting` has its own filter. */
export const ACTIVITY_STATUS: Record<Exclude<keyof ActivityCounts, 'restarting'>, number> = {
  offline: 0,
  idle: 1,
  working: 2,
  faulted: 3,
  maintain: 4,
  updating: 5,
  disabled: 6,
};
export const ACTIVITY_KEYS: readonly (keyof ActivityCounts)[] = ['idle', 'working', 'faulted', 'maintain', 'updating', 'restarting', 'offline', 'disabled'];
/** Device alarm status (device list `alarmStatus=N`) of the health keys. */
export const HEALTH_STATUS: Record<keyof HealthCounts, number> = { noFault: 0, partFault: 1, fault: 2 };
export const HEALTH_KEYS: readonly (keyof HealthCounts)[] = ['noFault', 'partFault', 'fault'];

const ACTIVITY_COLORS: Record<keyof ActivityCounts, string> = {
  idle: '#52c41a',
  working: '#1677ff',
  faulted: '#ff4d4f',
  maintain: '#fa8c16',
  updating: '#13c2c2',
  restarting: '#722ed1',
  offline: '#8c8c8c',
  disabled: '#d9d9d9',
};
const HEALTH_COLORS: Record<keyof HealthCounts, string> = { noFault: '#95de64', partFault: '#ffc53d', fault: '#ff7875' };
export const LEVEL_COLORS = ['#fadb14', '#fa8c16', '#f5222d'];
export const KIND_COLORS: Record<FaultKind, string> = { offline: '#8c8c8c', alarm: '#fa8c16', fault: '#f5222d', unavailable: '#722ed1' };

/** The slice key of a model (its id; "others" for the rest). */
export const modelKey = (modelId: number) => (modelId ? `model-${modelId}` : 'model-others');

export function activitySlices(o: HomeOverview | undefined, t: T): PieSlice[] {
  if (!o) return [];
  return ACTIVITY_KEYS.map((k) => ({ key: k, name: t(`home.activity.${k}`), value: o.activity?.[k] ?? 0, color: ACTIVITY_COLORS[k] }));
}

export function healthSlices(o: HomeOverview | undefined, t: T): PieSlice[] {
  if (!o) return [];
  return HEALTH_KEYS.map((k) => ({ key: k, name: t(`home.health.${k}`), value: o.health?.[k] ?? 0, color: HEALTH_COLORS[k] }));
}

export function modelSlices(o: HomeOverview | undefined, t: T): PieSlice[] {
  return (o?.byModel ?? []).map((m) => ({ key: modelKey(m.modelId), name: m.modelId ? m.name : t('home.models.others'), value: m.count }));
}

export function levelSlices(o: HomeOverview | undefined, t: T): PieSlice[] {
  if (!o) return [];
  return ALARM_LEVEL_KEYS.map((k, level) => ({ key: k, name: t(`event.level.${level}`), value: o.alarmLevels?.[k] ?? 0, color: LEVEL_COLORS[level] }));
}

export function kindSlices(o: HomeOverview | undefined, t: T): PieSlice[] {
  if (!o) return [];
  return FAULT_KINDS.map((k, kind) => ({ key: k, name: t(`event.kind.${kind}`), value: o.faultTypes?.[k] ?? 0, color: KIND_COLORS[k] }));
}

export const sum = (slices: { value: number }[]) => slices.reduce((a, s) => a + (s.value || 0), 0);

// ---------------------------------------------------------------- the lists behind the figures

const DEVICE_LIST = '/manage/device/list';

/** The device list URL of a device slice (activity, health or model key); null when unknown. */
export function deviceListUrl(key: string): string | null {
  if (key === 'restarting') return `${DEVICE_LIST}?restarting=1`;
  if (key in ACTIVITY_STATUS) return `${DEVICE_LIST}?status=${ACTIVITY_STATUS[key as keyof typeof ACTIVITY_STATUS]}&restarting=0`;
  if (key in HEALTH_STATUS) return `${DEVICE_LIST}?alarmStatus=${HEALTH_STATUS[key as keyof HealthCounts]}`;
  if (key === 'model-others') return DEVICE_LIST;
  const m = /^model-(\d+)$/.exec(key);
  if (m) return `${DEVICE_LIST}?modelId=${m[1]}`;
  return null;
}

/** A filter of the event list (dev/alarm/list). */
export interface EventFilter {
  kinds?: number[];
  status?: number;
  level?: number;
  start?: number;
  end?: number;
}

export const OPEN = 0;
const ALARM_AND_FAULT = [1, 2];

/** Open alarms and faults of a level key (oa, ma, ca). */
export function levelEvents(key: string): EventFilter | null {
  const level = (ALARM_LEVEL_KEYS as readonly string[]).indexOf(key);
  return level < 0 ? null : { status: OPEN, kinds: ALARM_AND_FAULT, level };
}

/** All open alarms and faults (the devices in alarm). */
export const openAlarmEvents = (): EventFilter => ({ status: OPEN, kinds: ALARM_AND_FAULT });

/** Open events of a kind key (offline, alarm, fault, unavailable). */
export function kindEvents(key: string): EventFilter | null {
  const kind = (FAULT_KINDS as readonly string[]).indexOf(key);
  return kind < 0 ? null : { status: OPEN, kinds: [kind] };
}

/** Events of a kind key (all kinds without one) started in [start, end). */
export function startedEvents(start: number, end: number, key?: string): EventFilter {
  const kind = key === undefined ? -1 : (FAULT_KINDS as readonly string[]).indexOf(key);
  return kind < 0 ? { start, end } : { kinds: [kind], start, end };
}
