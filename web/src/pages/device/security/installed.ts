/**
 * Pure logic of the "Certificates on the charger" card (InstalledCertificates.tsx; tested in
 * installed.test.ts): the client-side check of a PEM certificate before it is sent (the server
 * checks it again: one CA certificate that parses), and hashes shortened for the table.
 */

/** OCPP's bound of InstallCertificate.certificate (characters). */
export const MAX_CERTIFICATE_PEM = 5500;

/** The certificate types a charger holds roots of (OCPP 1.6 security extension CertificateUse). */
export const CERTIFICATE_TYPES = ['CentralSystemRootCertificate', 'ManufacturerRootCertificate'] as const;
export type CertificateType = (typeof CERTIFICATE_TYPES)[number];

export type PemProblem = 'empty' | 'notPem' | 'several' | 'tooLong';

const BEGIN = '-----BEGIN CERTIFICATE-----';
const END = '-----END CERTIFICATE-----';
const BODY = /^[A-Za-z0-9+/=\s]+$/;

/**
 * Why text is not one PEM certificate (null: it looks like one): empty, longer than OCPP allows,
 * more than one certificate, or not a BEGIN/END CERTIFICATE block around base64.
 */
export function pemProblem(text: string): PemProblem | null {
  const s = text.trim();
  if (!s) return 'empty';
  if (text.length > MAX_CERTIFICATE_PEM) return 'tooLong';
  const begins = s.split(BEGIN).length - 1;
  if (begins > 1) return 'several';
  if (begins !== 1 || !s.startsWith(BEGIN) || !s.endsWith(END)) return 'notPem';
  const body = s.slice(BEGIN.length, s.length - END.length);
  if (!body.trim() || !BODY.test(body) || body.includes('-----')) return 'notPem';
  return null;
}

/** A long hex hash as its first and last 8 digits ("0a1b2c3d…9f8e7d6c"); short ones whole. */
export function shortHash(hex: string, keep = 8): string {
  return hex.length <= 2 * keep + 1 ? hex : `${hex.slice(0, keep)}…${hex.slice(-keep)}`;
}
