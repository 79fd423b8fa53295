/**
 * The terminal WebSocket's messages (docs/remote-access.md, "Terminal"), tested in
 * protocol.test.ts. Every frame is a JSON text frame:
 *   browser → server: auth (first), input, resize;
 *   server → browser: output, ready, closed, error (closed and error carry a localised message).
 */

export interface TerminalLogin {
  username: string;
  password: string;
  port: number;
}

export type ClientFrame =
  | ({ type: 'auth'; cols: number; rows: number } & TerminalLogin)
  | { type: 'input'; data: string }
  | { type: 'resize'; cols: number; rows: number };

export type ServerFrame =
  | { type: 'output'; data: string }
  | { type: 'ready' }
  | { type: 'closed'; message: string }
  | { type: 'error'; message: string };

export function encodeFrame(f: ClientFrame): string {
  return JSON.stringify(f);
}

export const authFrame = (login: TerminalLogin, cols: number, rows: number): string =>
  encodeFrame({ type: 'auth', username: login.username, password: login.password, port: login.port, cols, rows });
export const inputFrame = (data: string): string => encodeFrame({ type: 'input', data });
export const resizeFrame = (cols: number, rows: number): string => encodeFrame({ type: 'resize', cols, rows });

/** A server frame, or null for anything that is not one (binary data, bad JSON, unknown type). */
export function decodeFrame(raw: unknown): ServerFrame | null {
  if (typeof raw !== 'string') return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  const text = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : '');
  switch (o.type) {
    case 'output':
      return typeof o.data === 'string' ? { type: 'output', data: o.data } : null;
    case 'ready':
      return { type: 'ready' };
    case 'closed':
      return { type: 'closed', message: text('message') };
    case 'error':
      return { type: 'error', message: text('message') };
    default:
      return null;
  }
}

/** The dialog's own check before connecting (the server checks again: "parameter error"). */
export function loginProblem(l: Partial<TerminalLogin>): 'username' | 'password' | 'port' | null {
  if (!l.username?.trim()) return 'username';
  if (!l.password) return 'password';
  if (!Number.isInteger(l.port) || (l.port as number) < 1 || (l.port as number) > 65535) return 'port';
  return null;
}

/** Ctrl+Shift+V: the browser's own paste, not a control character sent to the shell. */
export function isPasteKey(e: { type: string; ctrlKey: boolean; shiftKey: boolean; altKey?: boolean; metaKey?: boolean; code?: string; key: string }): boolean {
  return e.type === 'keydown' && e.ctrlKey && e.shiftKey && !e.altKey && !e.metaKey && (e.code === 'KeyV' || e.key === 'V' || e.key === 'v');
}

const KEYS: Record<string, string> = {
  '\x1b[A': '[Up]',
  '\x1b[B': '[Down]',
  '\x1b[C': '[Right]',
  '\x1b[D': '[Left]',
  '\x1b[H': '[Home]',
  '\x1b[F': '[End]',
  '\x1b[3~': '[Del]',
};

/**
 * Audited terminal input made readable: Enter as a line break, Backspace as [BS], arrow and
 * editing keys by name ([Up], [Del]), other control characters in caret notation (^C), other
 * escape sequences as ^[.
 */
export function readableInput(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\x1b') {
      const seq = Object.keys(KEYS).find((k) => s.startsWith(k, i));
      if (seq) {
        out += KEYS[seq];
        i += seq.length - 1;
        continue;
      }
      out += '^[';
      continue;
    }
    if (c === '\r') {
      out += '\n';
      if (s[i + 1] === '\n') i++;
      continue;
    }
    if (c === '\n' || c === '\t') out += c;
    else if (c === '\x7f' || c === '\b') out += '[BS]';
    else if (c < ' ') out += `^${String.fromCharCode(c.charCodeAt(0) + 64)}`;
    else out += c;
  }
  return out;
}
