/**
 * Pure logic of the device's Smart charging tab (issue 25), tested in profile.test.ts: the
 * periods of a schedule as a short text, the next free operator profile id, the set-profile
 * form as the profile control type 26 sends (with the server's checks of
 * internal/smartcharging/profile.go), and a composite schedule as chart points.
 */
import {
  POWER_LIMITS,
  type ChargingProfile,
  type CompositeSchedule,
  type ProfileKind,
  type ProfilePurpose,
  type ProfileRow,
  type RateUnit,
  type Recurrency,
  type SchedulePeriod,
} from '../../../services/power';

/** Control types of smart charging (docs/gateway.md, "Commands"). */
export const SC_CTL = { setProfile: 26, clearProfile: 27, composite: 28 } as const;

/** Periods as "0s 16A · 3600s 10A" (phases when given: "0s 16A×1"). */
export function periodsSummary(periods: readonly SchedulePeriod[] | null | undefined, unit: string): string {
  if (!periods?.length) return '-';
  return periods.map((p) => `${p.start}s ${p.limit}${unit}${p.phases ? `×${p.phases}` : ''}`).join(' · ');
}

/**
 * The default id of a new operator profile: one above the highest operator id on the charger
 * (1 when none), or, when that is past 899999, the lowest free id.
 */
export function nextProfileId(rows: readonly Pick<ProfileRow, 'profile'>[] | null | undefined): number {
  const used = new Set((rows ?? []).map((r) => r.profile.id).filter((id) => id >= 1 && id <= POWER_LIMITS.maxOperatorId));
  const top = Math.max(0, ...used);
  if (top < POWER_LIMITS.maxOperatorId) return top + 1;
  for (let id = 1; id <= POWER_LIMITS.maxOperatorId; id++) if (!used.has(id)) return id;
  return 1;
}

/** The set-profile form's values; times as unix ms. */
export interface ProfileFormValues {
  connectorId: number;
  purpose: ProfilePurpose;
  id: number;
  stackLevel: number;
  kind: ProfileKind;
  recurrency?: Recurrency;
  start?: number | null;
  duration?: number | null;
  unit: RateUnit;
  minRate?: number | null;
  periods: { start?: number | null; limit?: number | null; phases?: number | null }[];
  validFrom?: number | null;
  validTo?: number | null;
  transactionId?: number | null;
}

/** Why a schedule's periods would be refused (an i18n key with its values), or null. */
export function periodsError(
  periods: ProfileFormValues['periods'] | null | undefined,
  unit: RateUnit,
  duration?: number | null,
): { key: string; values?: Record<string, unknown> } | null {
  const list = periods ?? [];
  if (list.length === 0) return { key: 'sc.periods.empty' };
  if (list.length > POWER_LIMITS.maxPeriods) return { key: 'sc.periods.tooMany', values: { max: POWER_LIMITS.maxPeriods } };
  const max = unit === 'W' ? POWER_LIMITS.maxPeriodW : POWER_LIMITS.maxPeriodA;
  for (let i = 0; i < list.length; i++) {
    const p = list[i];
    const start = p?.start ?? NaN;
    if (i === 0 && start !== 0) return { key: 'sc.periods.first' };
    if (i > 0 && !(start > (list[i - 1]?.start ?? Infinity))) return { key: 'sc.periods.order' };
    if (duration && start >= duration) return { key: 'sc.periods.order' };
    const limit = p?.limit;
    if (typeof limit !== 'number' || !Number.isFinite(limit) || limit < 0 || limit > max) return { key: 'sc.periods.limit', values: { max, unit } };
  }
  return null;
}

const set = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** The form as the profile of control type 26: fields a kind or purpose does not take are left out. */
export function formToProfile(v: ProfileFormValues): ChargingProfile {
  const timed = v.kind !== 'Relative';
  return {
    id: v.id,
    stackLevel: v.stackLevel,
    purpose: v.purpose,
    kind: v.kind,
    ...(v.kind === 'Recurring' ? { recurrency: v.recurrency ?? 'Daily' } : {}),
    ...(set(v.validFrom) ? { validFrom: v.validFrom } : {}),
    ...(set(v.validTo) ? { validTo: v.validTo } : {}),
    ...(v.purpose === 'Tx' && set(v.transactionId) ? { transactionId: v.transactionId } : {}),
    schedule: {
      ...(timed && set(v.start) ? { start: v.start } : {}),
      ...(set(v.duration) && v.duration > 0 ? { duration: v.duration } : {}),
      unit: v.unit,
      ...(set(v.minRate) && v.minRate > 0 ? { minRate: v.minRate } : {}),
      periods: v.periods.map((p) => ({ start: p.start ?? 0, limit: p.limit ?? 0, ...(set(p.phases) && p.phases > 0 ? { phases: p.phases } : {}) })),
    },
  };
}

/**
 * The first check the server would refuse the form for, as [form field, i18n key, values], or
 * null: the periods (first at 0, increasing, within the duration, limits in range), the start of
 * a timed profile, the validity, the session of a Tx profile, connector 0 for a charger maximum.
 */
export function profileFormError(v: ProfileFormValues): { field: string; key: string; values?: Record<string, unknown> } | null {
  if (v.purpose === 'ChargePointMax' && v.connectorId !== 0) return { field: 'connectorId', key: 'sc.stationConnector' };
  if (v.purpose === 'Tx' && !(v.connectorId >= 1)) return { field: 'connectorId', key: 'sc.txConnector' };
  if (v.purpose === 'Tx' && !(set(v.transactionId) && v.transactionId > 0)) return { field: 'transactionId', key: 'com_value_required' };
  if (!(v.id >= 1 && v.id <= POWER_LIMITS.maxOperatorId)) return { field: 'id', key: 'sc.idRange', values: { max: POWER_LIMITS.maxOperatorId } };
  if (v.kind !== 'Relative' && !(set(v.start) && v.start > 0)) return { field: 'start', key: 'sc.startRequired' };
  if (set(v.validTo) && v.validTo <= (v.validFrom ?? 0)) return { field: 'validTo', key: 'sc.validRange' };
  const p = periodsError(v.periods, v.unit, v.duration);
  if (p) return { field: 'periods', ...p };
  return null;
}

/** A GetCompositeSchedule answer as stored on the command (JSON), or null when empty or unreadable. */
export function parseComposite(raw: string | null | undefined): CompositeSchedule | null {
  if (!raw) return null;
  try {
    const a = JSON.parse(raw) as Partial<CompositeSchedule> | null;
    if (!a || !Array.isArray(a.periods) || a.periods.length === 0) return null;
    return { connectorId: a.connectorId ?? 0, start: a.start ?? 0, duration: a.duration ?? 0, unit: a.unit ?? '', periods: a.periods };
  } catch {
    return null;
  }
}

/**
 * A composite schedule as step points [time ms, limit]: one at each period's start (start +
 * period start s), and the last period's limit again at the end of the duration, so the chart
 * draws it to the end (with `step: 'end'` each value holds until the next point).
 */
export function compositePoints(c: CompositeSchedule | null | undefined): [number, number][] {
  if (!c?.periods.length) return [];
  const sorted = [...c.periods].sort((a, b) => a.start - b.start);
  const pts: [number, number][] = sorted.map((p) => [c.start + p.start * 1000, p.limit]);
  const end = c.start + c.duration * 1000;
  const last = sorted[sorted.length - 1];
  if (c.duration > 0 && end > pts[pts.length - 1][0]) pts.push([end, last.limit]);
  return pts;
}

/** Quick durations of a composite schedule, s. */
export const COMPOSITE_DURATIONS = [3600, 6 * 3600, 24 * 3600] as const;
