import { describe, expect, it } from 'vitest';
import { EXPIRING_DAYS, expiry, pemFileName } from './caView';

const DAY = 24 * 60 * 60 * 1000;
const now = Date.UTC(2026, 10, 29);

describe('expiry', () => {
  it('counts whole days left and calls a certificate inside the window expiring', () => {
    expect(expiry(now + 10 * DAY + 5, now)).toEqual({ state: 'expiring', days: 10 });
    expect(expiry(now + (EXPIRING_DAYS - 1) * DAY, now).state).toBe('expiring');
  });
  it('calls one with the window or more left valid', () => {
    expect(expiry(now + EXPIRING_DAYS * DAY, now)).toEqual({ state: 'valid', days: EXPIRING_DAYS });
  });
  it('counts the days since an expired one ended, negative', () => {
    expect(expiry(now - 1, now)).toEqual({ state: 'expired', days: -1 });
    expect(expiry(now - 3 * DAY, now)).toEqual({ state: 'expired', days: -3 });
    expect(expiry(now, now).state).toBe('expired');
  });
});

describe('pemFileName', () => {
  it('names the file after the common name', () => {
    expect(pemFileName('CN=chargeops charge-point CA,O=chargeops')).toBe('chargeops-charge-point-CA.crt');
    expect(pemFileName('O=Example,CN=Operator CP CA')).toBe('Operator-CP-CA.crt');
  });
  it('falls back to the subject, then to ca', () => {
    expect(pemFileName('O=Only org')).toBe('O-Only-org.crt');
    expect(pemFileName('')).toBe('ca.crt');
  });
});
