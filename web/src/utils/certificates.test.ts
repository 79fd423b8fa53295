import { describe, expect, it } from 'vitest';
import { certificateHealth, EXPIRING_DAYS, expiry } from './certificates';

const day = 24 * 3600 * 1000;
const now = Date.UTC(2026, 10, 29);

describe('certificate health', () => {
  it.each([
    [now + 365 * day, 'valid'],
    [now + 31 * day, 'valid'],
    [now + 30 * day, 'expiring'],
    [now + 1, 'expiring'],
    [now, 'expired'],
    [now - day, 'expired'],
  ] as const)('ending at %i is %s', (notAfter, want) => expect(certificateHealth(notAfter, now)).toBe(want));
});

describe('expiry', () => {
  it('counts whole days left and calls a certificate inside the window expiring', () => {
    expect(expiry(now + 10 * day + 5, now)).toEqual({ state: 'expiring', days: 10 });
    expect(expiry(now + (EXPIRING_DAYS - 1) * day, now).state).toBe('expiring');
  });
  it('calls one ending at the window edge expiring, as the server alarm does, and one past it valid', () => {
    expect(expiry(now + EXPIRING_DAYS * day, now)).toEqual({ state: 'expiring', days: EXPIRING_DAYS });
    expect(expiry(now + (EXPIRING_DAYS + 1) * day, now)).toEqual({ state: 'valid', days: EXPIRING_DAYS + 1 });
  });
  it('counts the days since an expired one ended, negative', () => {
    expect(expiry(now - 1, now)).toEqual({ state: 'expired', days: -1 });
    expect(expiry(now - 3 * day, now)).toEqual({ state: 'expired', days: -3 });
    expect(expiry(now, now).state).toBe('expired');
  });
});
