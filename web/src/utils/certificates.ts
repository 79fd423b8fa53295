/**
 * How soon a certificate ends, as the console marks it: the device's Security tab and the
 * Charge-point CA tab. The window is the server's expiry alarm's (internal/fleet
 * certificate_expiry.go: 30 days, an end at the window's edge included).
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days before a certificate's end when it is marked expiring (the whitepaper renews ahead). */
export const EXPIRING_DAYS = 30;

export type CertificateHealth = 'valid' | 'expiring' | 'expired';

/** The tag colour of each health. */
export const HEALTH_COLORS = { valid: 'green', expiring: 'orange', expired: 'red' } as const;

/** Whether a certificate ending at `notAfter` (unix ms) is valid, expiring within EXPIRING_DAYS or expired at `now`. */
export function certificateHealth(notAfter: number, now: number): CertificateHealth {
  if (notAfter <= now) return 'expired';
  return notAfter - now <= EXPIRING_DAYS * DAY_MS ? 'expiring' : 'valid';
}

export type Expiry = { state: CertificateHealth; days: number };

/** The certificate's health and the whole days left until notAfter (negative once expired: the days since). */
export function expiry(notAfter: number, now: number): Expiry {
  const left = notAfter - now;
  const days = left >= 0 ? Math.floor(left / DAY_MS) : -Math.ceil(-left / DAY_MS);
  return { state: certificateHealth(notAfter, now), days };
}
