/**
 * OCPP message names where operators read or pick them (issue 30 item 19): a plain name in the
 * user's language first, the OCPP name kept beside for engineers; a message without a plain
 * name is shown by its OCPP name alone. Frame kinds (CALL, CALLRESULT, CALLERROR) likewise.
 */
type T = (key: string) => string;
type Exists = (key: string) => boolean;

export interface MessageLabel {
  /** Plain name (or the OCPP name when there is none). */
  name: string;
  /** The OCPP name to show beside ('' when the name already is it). */
  code: string;
}

/** The label of an OCPP action such as "MeterValues". */
export function messageLabel(action: string | null | undefined, t: T, exists: Exists): MessageLabel {
  if (!action) return { name: '-', code: '' };
  const key = `ocpp.msg.${action}`;
  return exists(key) ? { name: t(key), code: action } : { name: action, code: '' };
}

const MESSAGE_TYPES: Record<number, string> = { 2: 'CALL', 3: 'CALLRESULT', 4: 'CALLERROR' };

/**
 * A protocol-log frame as an operator reads it: a call by its message's plain name, an answer
 * or error answer by its kind (an error with its code); the raw summary beside
 * ("CALL MeterValues", "CALLERROR NotImplemented"). Empty for a frame that is not OCPP-J.
 */
export function frameLabel(data: string, t: T, exists: Exists): MessageLabel {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return { name: '', code: '' };
  }
  if (!Array.isArray(v) || typeof v[0] !== 'number') return { name: '', code: '' };
  const kind = MESSAGE_TYPES[v[0]] ?? String(v[0]);
  if (v[0] === 2) {
    const action = String(v[2] ?? '');
    const l = messageLabel(action, t, exists);
    return { name: l.name, code: `${kind} ${action}`.trim() };
  }
  const kindKey = `ocpp.frame.${kind}`;
  const name = exists(kindKey) ? t(kindKey) : kind;
  const code = v[0] === 4 ? `${kind} ${String(v[2] ?? '')}`.trim() : kind;
  return { name: v[0] === 4 && v[2] ? `${name}: ${String(v[2])}` : name, code };
}
