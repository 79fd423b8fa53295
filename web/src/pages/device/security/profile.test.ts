import { describe, expect, it } from 'vitest';
import { profileChange, profileNeeds } from './profile';

describe('security profile changes', () => {
  it.each([
    [1, 1, 'same'],
    [1, 3, 'raise'],
    [3, 0, 'lower'],
    [2, 1, 'lower'],
  ] as const)('%i to %i is %s', (from, to, want) => {
    expect(profileChange(from, to)).toBe(want);
  });
});

describe('what a profile needs of the charger', () => {
  it('profile 0 needs nothing', () => expect(profileNeeds(0, false)).toEqual([]));
  it('profiles 1 and 2 need a key when the device has none', () => {
    expect(profileNeeds(1, false)).toEqual(['device.security.needKey']);
    expect(profileNeeds(1, true)).toEqual([]);
    expect(profileNeeds(2, false)).toEqual(['device.security.needKey', 'device.security.needTLS']);
  });
  it('profile 3 needs TLS and a client certificate, not a key', () =>
    expect(profileNeeds(3, false)).toEqual(['device.security.needTLS', 'device.security.needCertificate']));
});
