import { describe, expect, it } from 'vitest';
import { MAX_CERTIFICATE_PEM, pemProblem, shortHash } from './installed';

const body = 'MIIBkTCCATegAwIBAgIUFakeButBase64Looking0123456789abcdef+/==';
const pem = `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;

describe('pemProblem', () => {
  it('takes one PEM certificate, with surrounding blank lines or CRLF', () => {
    expect(pemProblem(pem)).toBeNull();
    expect(pemProblem(`\n\n${pem.replace(/\n/g, '\r\n')}\n`)).toBeNull();
  });
  it('names an empty text', () => {
    expect(pemProblem('')).toBe('empty');
    expect(pemProblem('  \n ')).toBe('empty');
  });
  it('refuses what is not a certificate block', () => {
    expect(pemProblem(body)).toBe('notPem');
    expect(pemProblem(pem.replace(/CERTIFICATE/g, 'PRIVATE KEY'))).toBe('notPem');
    expect(pemProblem(pem.replace('-----END CERTIFICATE-----', ''))).toBe('notPem');
    expect(pemProblem('-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----')).toBe('notPem');
    expect(pemProblem(pem.replace(body, 'not base64!'))).toBe('notPem');
    expect(pemProblem(`garbage\n${pem}`)).toBe('notPem');
  });
  it('refuses a chain of several certificates', () => {
    expect(pemProblem(pem + pem)).toBe('several');
  });
  it('refuses more than OCPP allows', () => {
    expect(pemProblem(pem + ' '.repeat(MAX_CERTIFICATE_PEM))).toBe('tooLong');
  });
});

describe('shortHash', () => {
  it('keeps the ends of a long hash', () => {
    const h = 'a'.repeat(8) + 'b'.repeat(48) + 'c'.repeat(8);
    expect(shortHash(h)).toBe('aaaaaaaa…cccccccc');
  });
  it('leaves a short value whole', () => {
    expect(shortHash('1f2e')).toBe('1f2e');
    expect(shortHash('0123456789abcdef0')).toBe('0123456789abcdef0');
  });
});
