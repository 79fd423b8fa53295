/** What the Charge-point CA tab derives from certificates: how soon each expires, file names. */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The window in which a certificate counts as expiring (and raises its alarm on the server). */
export const EXPIRING_DAYS = 30;

export type Expiry = { state: 'expired' | 'expiring' | 'valid'; days: number };

/** Whole days left until notAfter (negative once expired) and what that means. */
export function expiry(notAfter: number, now: number): Expiry {
  const left = notAfter - now;
  const days = left >= 0 ? Math.floor(left / DAY_MS) : -Math.ceil(-left / DAY_MS);
  if (left <= 0) return { state: 'expired', days };
  return { state: days < EXPIRING_DAYS ? 'expiring' : 'valid', days };
}

/** A download name for a CA certificate: its subject's CN (or the whole subject), filename-safe. */
export function pemFileName(subject: string): string {
  const cn = /(?:^|,)\s*CN=([^,]+)/.exec(subject)?.[1] ?? subject;
  const safe = cn.trim().replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  return `${safe || 'ca'}.crt`;
}
