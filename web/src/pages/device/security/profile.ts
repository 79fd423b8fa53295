/**
 * Security profiles (docs/security-profiles.md): the least a device's connections must prove.
 * The server keeps the rule; this names the profiles and what a change from one to another
 * means for the charger, so the tab can warn before it is made.
 */
export const PROFILES = [0, 1, 2, 3] as const;
export type Profile = (typeof PROFILES)[number];

export type ProfileChange = 'same' | 'raise' | 'lower';

/** Whether going from `from` to `to` raises or lowers the device's profile. */
export function profileChange(from: number, to: number): ProfileChange {
  if (to === from) return 'same';
  return to > from ? 'raise' : 'lower';
}

/**
 * What the charger must have for profile `to`, as i18n keys of warnings: a key for 1 and 2,
 * TLS for 2 and 3, a client certificate for 3. `hasKey` is whether the device has a key.
 */
export function profileNeeds(to: number, hasKey: boolean): string[] {
  const needs: string[] = [];
  if ((to === 1 || to === 2) && !hasKey) needs.push('device.security.needKey');
  if (to >= 2) needs.push('device.security.needTLS');
  if (to === 3) needs.push('device.security.needCertificate');
  return needs;
}
