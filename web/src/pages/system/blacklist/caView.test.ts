import { describe, expect, it } from 'vitest';
import { pemFileName } from './caView';

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
