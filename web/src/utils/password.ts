/** Password rule of docs/api.md#passwords-on-the-wire: 8-32 characters with upper and lower case, digits and special characters. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 32;

export function isStrongPassword(pw: string): boolean {
  if (pw.length < PASSWORD_MIN || pw.length > PASSWORD_MAX) return false;
  return /[A-Z]/.test(pw) && /[a-z]/.test(pw) && /\d/.test(pw) && /[^A-Za-z0-9]/.test(pw);
}
