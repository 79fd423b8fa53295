/**
 * An action-log row's action as operators read it (issue 30 item 19): the name the server gives
 * it from the route table in the user's language ("Add a customer"), a remote operation with
 * the operation it sent ("Send a remote operation: Soft reboot"); the raw "METHOD path" is kept
 * for the tooltip, and is the text only when no route names it.
 */
type T = (key: string, o?: Record<string, unknown>) => string;
type Exists = (key: string) => boolean;

const CONTROL_SEND = 'POST /api/auth/sys/dev/control/send';

export function actionLabel(row: { action: string; actionName?: string | null; data?: string | null }, t: T, exists: Exists): string {
  const name = row.actionName || row.action;
  if (row.action !== CONTROL_SEND || !row.data) return name;
  let ct: unknown;
  try {
    ct = (JSON.parse(row.data) as { controlType?: unknown }).controlType;
  } catch {
    return name; // a body cut at the row's limit
  }
  const key = `control.type.${String(ct)}`;
  return typeof ct === 'number' && exists(key) ? `${name}: ${t(key)}` : name;
}
