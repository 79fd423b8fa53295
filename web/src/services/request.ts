/**
 * The one request layer of the console (docs/api.md#envelope).
 *
 * - same origin (API base empty), cookies included, JSON content type,
 *   Accept-Language = the current locale, X-CSRF-Token from the `chargeops_csrf` cookie on
 *   every state-changing method;
 * - GET/HEAD carry no body: GET and every method other than post/put/patch/delete send their
 *   payload as query parameters;
 * - an identical request (method, URL, params, body) still in flight is cancelled by the new
 *   one; the cancelled promise rejects silently with a RequestError('cancelled');
 * - codes 20001-20004 clear the local session and, unless the call is /api/unauth/info, show
 *   ONE session-expired dialog whose OK goes to /login (none after a deliberate sign-out,
 *   beginSignOut, until the next sign-in); 20013 is only logged; 20014 (the privacy
 *   policy is not accepted yet) is not toasted: the session is refreshed, so the policy modal
 *   shows; any other non-zero code is an error toast with the server's message, except for the
 *   suppressed URLs.
 *
 * UI effects go through an adapter (configureRequest) so that tests can run with a mocked fetch.
 */

export const API_BASE = '';
export const REQUEST_TIMEOUT_MS = 600_000;
export const CSRF_COOKIE = 'chargeops_csrf';
export const CSRF_HEADER = 'X-CSRF-Token';
export const INFO_URL = '/api/unauth/info';
export const LOGIN_URL = '/api/unauth/login';
export const SESSION_EXPIRED_CODES: readonly number[] = [20001, 20002, 20003, 20004];
export const NO_PERMISSION_CODE = 20013;
/** The server holds every session call but the acceptance until the privacy policy is accepted. */
export const PRIVACY_PENDING_CODE = 20014;
/** Calls whose error messages are not toasted (the caller shows them, or they are silent). */
export const SUPPRESSED_MESSAGE_URLS: readonly string[] = [
  '/api/unauth/info',
  '/api/unauth/login',
  '/api/unauth/password/valid',
  '/api/unauth/password/reset',
  '/api/unauth/password/email',
  '/api/auth/sys/dev/basic/vpn/restart',
  '/api/auth/sys/article/detail',
];
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type RequestErrorKind = 'cancelled' | 'business' | 'session' | 'http' | 'network' | 'timeout';

export class RequestError extends Error {
  readonly kind: RequestErrorKind;
  readonly code?: number;
  readonly status?: number;
  readonly data?: unknown;
  constructor(kind: RequestErrorKind, message: string, extra: { code?: number; status?: number; data?: unknown } = {}) {
    super(message);
    this.name = 'RequestError';
    this.kind = kind;
    this.code = extra.code;
    this.status = extra.status;
    this.data = extra.data;
  }
}

export function isCancelled(e: unknown): boolean {
  return e instanceof RequestError && e.kind === 'cancelled';
}

export interface RequestUi {
  /** Translate a message key (com_error_net, ...). */
  t(key: string): string;
  getLocale(): string;
  notifyError(message: string): void;
  /** Show the session-expired warning; call onOk when the user confirms. */
  showSessionExpired(onOk: () => void): void;
  /** Forget the local session (the app is marked logged out). */
  clearSession(): void;
  navigate(path: string): void;
  /** The privacy policy is owed (code 20014): refresh the session so its modal shows. */
  onPrivacyPending(): void;
}

const defaultUi: RequestUi = {
  t: (key) => key,
  getLocale: () => 'en-US',
  notifyError: (m) => console.error(m),
  showSessionExpired: (onOk) => onOk(),
  clearSession: () => undefined,
  navigate: (path) => window.location.assign(path),
  onPrivacyPending: () => undefined,
};

let ui: RequestUi = { ...defaultUi };

export function configureRequest(partial: Partial<RequestUi>): void {
  ui = { ...ui, ...partial };
}

/** The configured UI adapter (for helpers beside request(), such as downloads). */
export function requestUi(): RequestUi {
  return ui;
}

export interface RequestOptions {
  method?: string;
  /** Query parameters. */
  params?: Record<string, unknown>;
  /** Body for post/put/patch/delete; query parameters for other methods. */
  data?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeout?: number;
  /** Never toast errors of this call (the caller shows them). */
  silent?: boolean;
}

const inflight = new Map<string, AbortController>();
let sessionDialogOpen = false;
/**
 * Set by a deliberate sign-out until the next successful sign-in: calls still in flight when the
 * session ends answer 20001-20004, which then clear the session quietly instead of reporting a
 * timeout over the login form.
 */
let signedOut = false;

/** A deliberate sign-out starts: later session-expired answers show no dialog. */
export function beginSignOut(): void {
  signedOut = true;
}

/** Test helper: forget in-flight requests and the dialog and sign-out latches. */
export function resetRequestState(): void {
  inflight.clear();
  sessionDialogOpen = false;
  signedOut = false;
}

export function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const [k, ...rest] = part.trim().split('=');
    if (k === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q >= 0 ? url.slice(0, q) : url;
}

export function isSuppressed(url: string): boolean {
  return SUPPRESSED_MESSAGE_URLS.includes(pathOf(url));
}

export function buildUrl(url: string, params?: unknown): string {
  const full = API_BASE + url;
  if (!params || typeof params !== 'object') return full;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params as Record<string, unknown>)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) v.forEach((x) => search.append(k, String(x)));
    else search.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const qs = search.toString();
  if (!qs) return full;
  return full + (full.includes('?') ? '&' : '?') + qs;
}

/** 20001-20004: forget the session and, once, say so (not for /info, not after a sign-out). */
export function handleSessionExpired(url: string): void {
  ui.clearSession();
  if (pathOf(url) === INFO_URL || signedOut) return;
  if (sessionDialogOpen) return;
  sessionDialogOpen = true;
  ui.showSessionExpired(() => {
    sessionDialogOpen = false;
    ui.navigate('/login');
  });
}

/**
 * Answers that mean "try again shortly": too many requests (429) or the server, or a proxy in
 * front of it, overloaded for the moment (503) → "The network is busy"
 * (docs/decisions.md#network-busy). Other statuses keep their messages (502: "System error").
 */
export const BUSY_STATUSES: ReadonlySet<number> = new Set([429, 503]);

function fail(url: string, silent: boolean, error: RequestError): never {
  if (!silent && !isSuppressed(url)) ui.notifyError(error.message);
  throw error;
}

/**
 * Sends one API call and resolves with the envelope's `data` when `code` is 0.
 * Rejects with a RequestError otherwise.
 */
export async function request<T = unknown>(url: string, options: RequestOptions = {}): Promise<T> {
  const method = (options.method ?? 'GET').toUpperCase();
  const hasBody = BODY_METHODS.has(method);
  const query = hasBody ? options.params : (options.params ?? options.data);
  const fullUrl = buildUrl(url, query);
  const body = hasBody ? JSON.stringify(options.data ?? {}) : undefined;
  const silent = options.silent ?? false;

  const key = [method, url, JSON.stringify(options.params ?? null), JSON.stringify(options.data ?? null)].join(' ');
  inflight.get(key)?.abort();
  const controller = new AbortController();
  inflight.set(key, controller);
  const onOuterAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onOuterAbort);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeout ?? REQUEST_TIMEOUT_MS);

  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'Accept-Language': ui.getLocale(),
    ...options.headers,
  };
  if (!SAFE_METHODS.has(method)) {
    const csrf = readCookie(CSRF_COOKIE);
    if (csrf) headers[CSRF_HEADER] = csrf;
  }

  const cancelledOrTimeout = (): never => {
    if (timedOut) return fail(url, silent, new RequestError('timeout', ui.t('com_error_timeout')));
    throw new RequestError('cancelled', 'cancelled');
  };

  try {
    let res: Response;
    try {
      res = await fetch(fullUrl, { method, headers, body, credentials: 'include', signal: controller.signal });
    } catch {
      if (controller.signal.aborted) return cancelledOrTimeout();
      return fail(url, silent, new RequestError('network', ui.t('com_error_net')));
    }

    let payload: unknown = undefined;
    try {
      const text = await res.text();
      payload = text ? JSON.parse(text) : undefined;
    } catch {
      payload = undefined;
    }
    if (controller.signal.aborted) return cancelledOrTimeout();

    if (res.status !== 200) {
      let msg: string;
      if (res.status === 404) msg = ui.t('com_api_error_404');
      else if (res.status === 500) msg = ui.t('com_error_500');
      else if (BUSY_STATUSES.has(res.status)) msg = ui.t('com_error_busy');
      else {
        const serverMsg = (payload as { message?: unknown } | undefined)?.message;
        msg = typeof serverMsg === 'string' && serverMsg ? serverMsg : ui.t('com_error_system');
      }
      return fail(url, silent, new RequestError('http', msg, { status: res.status }));
    }

    if (!payload || typeof payload !== 'object' || typeof (payload as { code?: unknown }).code !== 'number') {
      return fail(url, silent, new RequestError('http', ui.t('com_error_system'), { status: res.status }));
    }
    const env = payload as { code: number; message?: string; data?: unknown };
    const message = env.message || ui.t('com_error_system');
    if (env.code === 0) {
      if (pathOf(url) === LOGIN_URL) signedOut = false;
      return env.data as T;
    }
    if (SESSION_EXPIRED_CODES.includes(env.code)) {
      handleSessionExpired(url);
      throw new RequestError('session', message, { code: env.code, data: env.data });
    }
    if (env.code === PRIVACY_PENDING_CODE) {
      ui.onPrivacyPending();
      throw new RequestError('business', message, { code: env.code, data: env.data });
    }
    if (env.code === NO_PERMISSION_CODE) {
      console.warn(`[${env.code}] ${method} ${url}: ${message}`);
      throw new RequestError('business', message, { code: env.code, data: env.data });
    }
    return fail(url, silent, new RequestError('business', message, { code: env.code, data: env.data }));
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
    if (inflight.get(key) === controller) inflight.delete(key);
  }
}

export const get = <T>(url: string, params?: Record<string, unknown>, o?: RequestOptions) =>
  request<T>(url, { ...o, method: 'GET', params });
export const post = <T>(url: string, data?: unknown, o?: RequestOptions) =>
  request<T>(url, { ...o, method: 'POST', data: data ?? {} });
