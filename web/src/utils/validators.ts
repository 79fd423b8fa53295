/** Field rules of docs/decisions.md#sign-in-and-accounts shared by the forms (the server checks them again). */
export const SN_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{3,47}$/;
export const USER_NAME_RE = /^[A-Za-z0-9_]{6,32}$/;
export const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

export const isValidSN = (sn: string) => SN_RE.test(sn.trim());
export const isValidUserName = (n: string) => USER_NAME_RE.test(n);
export function isValidDate(s: string | undefined | null): boolean {
  if (!s) return true;
  if (!DATE_RE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}
