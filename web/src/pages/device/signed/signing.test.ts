import { describe, expect, it } from 'vitest';
import { logTypesFor, MAX_FIRMWARE_SIGNATURE, signingError, signingOf } from './signing';

const cert = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIBBzAKBggqhkjOPQQDAjAaMRgwFgYDVQQDEw9GaXJtd2FyZSBzaWduZXI=\n-----END CERTIFICATE-----';
const sig = 'MEUCIQDx3vB9Yw==';

describe('signing fields of a firmware file', () => {
  it('accepts neither (an unsigned file) or both', () => {
    expect(signingError('', '')).toBeNull();
    expect(signingError(`\n${cert}\n`, ` ${sig} `)).toBeNull();
  });

  it('needs both', () => {
    expect(signingError(cert, '')).toBe('signed.needBoth');
    expect(signingError('', sig)).toBe('signed.needBoth');
  });

  it('checks each field', () => {
    expect(signingError('MIIB...', sig)).toBe('signed.badCertificate');
    expect(signingError(cert + 'x'.repeat(5500), sig)).toBe('signed.badCertificate');
    expect(signingError(cert, 'not base64!')).toBe('signed.badSignature');
    expect(signingError(cert, 'A'.repeat(MAX_FIRMWARE_SIGNATURE + 1))).toBe('signed.badSignature');
  });

  it('sends both trimmed, or nothing', () => {
    expect(signingOf(` ${cert}\n`, `${sig}\n`)).toEqual({ signingCertificate: cert, signature: sig });
    expect(signingOf('', '')).toBeUndefined();
  });
});

describe('log types', () => {
  it('offers the security log only with auth_device_certificate', () => {
    expect(logTypesFor(false)).toEqual(['DiagnosticsLog']);
    expect(logTypesFor(true)).toEqual(['DiagnosticsLog', 'SecurityLog']);
  });
});
