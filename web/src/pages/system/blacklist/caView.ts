/** The Charge-point CA tab's download name of a CA certificate: its subject's CN (or the whole subject), filename-safe. */
export function pemFileName(subject: string): string {
  const cn = /(?:^|,)\s*CN=([^,]+)/.exec(subject)?.[1] ?? subject;
  const safe = cn.trim().replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  return `${safe || 'ca'}.crt`;
}
