/**
 * The signing fields of a firmware file as the server checks them (internal/fleet/
 * signedfirmware.go): both or neither, the certificate PEM of at most 5500 characters, the
 * signature base64 of at most 800. The server parses the certificate; this is the form's quick
 * check before anything is uploaded.
 */

export const MAX_SIGNING_CERTIFICATE = 5500;
export const MAX_FIRMWARE_SIGNATURE = 800;

const PEM_CERT = /^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The i18n key of what is wrong with the signing fields, or null when they may be sent. */
export function signingError(certificate: string, signature: string): string | null {
  const cert = certificate.trim();
  const sig = signature.trim();
  if (cert && (cert.length > MAX_SIGNING_CERTIFICATE || !PEM_CERT.test(cert))) return 'signed.badCertificate';
  if (sig && (sig.length > MAX_FIRMWARE_SIGNATURE || !BASE64.test(sig))) return 'signed.badSignature';
  if (!!cert !== !!sig) return 'signed.needBoth';
  return null;
}

/** The signing part of firmware/add: both fields trimmed, or undefined for an unsigned file. */
export function signingOf(certificate: string, signature: string): { signingCertificate: string; signature: string } | undefined {
  const cert = certificate.trim();
  const sig = signature.trim();
  return cert && sig ? { signingCertificate: cert, signature: sig } : undefined;
}

/** The log types a user may ask for: the security log needs auth_device_certificate. */
export function logTypesFor(canCertificates: boolean): ('DiagnosticsLog' | 'SecurityLog')[] {
  return canCertificates ? ['DiagnosticsLog', 'SecurityLog'] : ['DiagnosticsLog'];
}
