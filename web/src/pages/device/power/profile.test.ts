import { describe, expect, it } from 'vitest';
import type { ProfileRow } from '../../../services/power';
import { compositePoints, formToProfile, nextProfileId, parseComposite, periodsError, periodsSummary, profileFormError, type ProfileFormValues } from './profile';

const row = (id: number) => ({ profile: { id } }) as unknown as ProfileRow;

const base: ProfileFormValues = {
  connectorId: 0,
  purpose: 'TxDefault',
  id: 5,
  stackLevel: 1,
  kind: 'Relative',
  unit: 'A',
  periods: [
    { start: 0, limit: 16 },
    { start: 3600, limit: 10 },
  ],
};

describe('smart charging profile logic', () => {
  it('summarises periods as start and limit with the unit', () => {
    expect(periodsSummary([{ start: 0, limit: 16 }, { start: 3600, limit: 10 }], 'A')).toBe('0s 16A · 3600s 10A');
    expect(periodsSummary([{ start: 0, limit: 7400, phases: 1 }], 'W')).toBe('0s 7400W×1');
    expect(periodsSummary([], 'A')).toBe('-');
    expect(periodsSummary(undefined, 'A')).toBe('-');
  });

  it('picks the next free operator id below 900000', () => {
    expect(nextProfileId([])).toBe(1);
    expect(nextProfileId([row(3), row(7)])).toBe(8);
    // the load manager's ids (900000 and above) do not count
    expect(nextProfileId([row(2), row(900001)])).toBe(3);
    expect(nextProfileId([row(899999), row(1)])).toBe(2);
  });

  it('checks the periods as the server does', () => {
    expect(periodsError([], 'A')).toEqual({ key: 'sc.periods.empty' });
    expect(periodsError([{ start: 10, limit: 16 }], 'A')).toEqual({ key: 'sc.periods.first' });
    expect(periodsError([{ start: 0, limit: 16 }, { start: 0, limit: 8 }], 'A')).toEqual({ key: 'sc.periods.order' });
    expect(periodsError([{ start: 0, limit: 16 }, { start: 7200, limit: 8 }], 'A', 3600)).toEqual({ key: 'sc.periods.order' });
    expect(periodsError([{ start: 0, limit: 1001 }], 'A')?.key).toBe('sc.periods.limit');
    expect(periodsError([{ start: 0, limit: 11000 }], 'W')).toBeNull();
    expect(periodsError(base.periods, 'A')).toBeNull();
    expect(periodsError(Array.from({ length: 49 }, (_, i) => ({ start: i * 60, limit: 6 })), 'A')?.key).toBe('sc.periods.tooMany');
  });

  it('turns the form into the profile of control type 26', () => {
    expect(formToProfile(base)).toEqual({
      id: 5,
      stackLevel: 1,
      purpose: 'TxDefault',
      kind: 'Relative',
      schedule: { unit: 'A', periods: [{ start: 0, limit: 16 }, { start: 3600, limit: 10 }] },
    });
    const p = formToProfile({
      ...base,
      purpose: 'Tx',
      connectorId: 1,
      transactionId: 42,
      kind: 'Recurring',
      recurrency: 'Weekly',
      start: 1_700_000_000_000,
      duration: 7200,
      minRate: 6,
      validFrom: 1_700_000_000_000,
      validTo: 1_800_000_000_000,
      periods: [{ start: 0, limit: 16, phases: 1 }],
    });
    expect(p).toEqual({
      id: 5,
      stackLevel: 1,
      purpose: 'Tx',
      kind: 'Recurring',
      recurrency: 'Weekly',
      validFrom: 1_700_000_000_000,
      validTo: 1_800_000_000_000,
      transactionId: 42,
      schedule: { start: 1_700_000_000_000, duration: 7200, unit: 'A', minRate: 6, periods: [{ start: 0, limit: 16, phases: 1 }] },
    });
    // a relative profile has no start; a session only on a Tx profile
    expect(formToProfile({ ...base, start: 123, transactionId: 9 }).schedule.start).toBeUndefined();
    expect(formToProfile({ ...base, start: 123, transactionId: 9 }).transactionId).toBeUndefined();
  });

  it('refuses a form the server would refuse, naming the field', () => {
    expect(profileFormError(base)).toBeNull();
    expect(profileFormError({ ...base, purpose: 'ChargePointMax', connectorId: 1 })?.field).toBe('connectorId');
    expect(profileFormError({ ...base, purpose: 'Tx', connectorId: 1 })?.field).toBe('transactionId');
    expect(profileFormError({ ...base, purpose: 'Tx', connectorId: 0, transactionId: 3 })?.field).toBe('connectorId');
    expect(profileFormError({ ...base, id: 900000 })?.field).toBe('id');
    expect(profileFormError({ ...base, kind: 'Absolute' })?.field).toBe('start');
    expect(profileFormError({ ...base, validFrom: 2000, validTo: 1000 })?.field).toBe('validTo');
    expect(profileFormError({ ...base, periods: [{ start: 5, limit: 10 }] })).toEqual({ field: 'periods', key: 'sc.periods.first' });
  });

  it('reads a composite answer and draws it to the end of its duration', () => {
    expect(parseComposite('')).toBeNull();
    expect(parseComposite('not json')).toBeNull();
    expect(parseComposite('{"connectorId":1,"start":0,"duration":60,"unit":"A","periods":[]}')).toBeNull();
    const c = parseComposite('{"connectorId":1,"start":1000000,"duration":3600,"unit":"A","periods":[{"start":0,"limit":16},{"start":1800,"limit":8}]}');
    expect(c).toEqual({ connectorId: 1, start: 1_000_000, duration: 3600, unit: 'A', periods: [{ start: 0, limit: 16 }, { start: 1800, limit: 8 }] });
    expect(compositePoints(c)).toEqual([
      [1_000_000, 16],
      [1_000_000 + 1_800_000, 8],
      [1_000_000 + 3_600_000, 8],
    ]);
    // periods out of order are sorted; no duration: no end point
    expect(compositePoints({ connectorId: 1, start: 0, duration: 0, unit: 'W', periods: [{ start: 60, limit: 1 }, { start: 0, limit: 2 }] })).toEqual([
      [0, 2],
      [60_000, 1],
    ]);
    expect(compositePoints(null)).toEqual([]);
  });
});
