// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  beginSignOut,
  configureRequest,
  CSRF_HEADER,
  isCancelled,
  request,
  RequestError,
  resetRequestState,
  REQUEST_TIMEOUT_MS,
  SUPPRESSED_MESSAGE_URLS,
  type RequestUi,
} from './request';

type Call = { url: string; init: RequestInit };

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

let calls: Call[];
let ui: { [K in keyof RequestUi]: ReturnType<typeof vi.fn> };

function mockFetch(handler: (url: string, init: RequestInit) => Promise<Response> | Response) {
  const fn = vi.fn((url: string, init: RequestInit) => {
    calls.push({ url, init });
    return Promise.resolve(handler(url, init));
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

/** A fetch that never answers until aborted (then rejects like the real one). */
function hangingFetch(url: string, init: RequestInit): Promise<Response> {
  void url;
  return new Promise((_, reject) => {
    init.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
  });
}

beforeEach(() => {
  calls = [];
  resetRequestState();
  ui = {
    t: vi.fn((k: string) => `t:${k}`),
    getLocale: vi.fn(() => 'zh-CN'),
    notifyError: vi.fn(),
    showSessionExpired: vi.fn(),
    clearSession: vi.fn(),
    navigate: vi.fn(),
    onPrivacyPending: vi.fn(),
  };
  configureRequest(ui as unknown as RequestUi);
  document.cookie = 'chargeops_csrf=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('request: transport rules', () => {
  it('resolves data on code 0 and sends same-origin JSON with cookies and Accept-Language', async () => {
    mockFetch(() => json({ code: 0, message: '', data: { a: 1 } }));
    await expect(request('/api/auth/x', { method: 'POST', data: { q: 1 } })).resolves.toEqual({ a: 1 });
    const { url, init } = calls[0];
    expect(url).toBe('/api/auth/x');
    expect(init.credentials).toBe('include');
    expect(init.method).toBe('POST');
    expect(init.body).toBe(JSON.stringify({ q: 1 }));
    const h = init.headers as Record<string, string>;
    expect(h['Content-Type']).toBe('application/json');
    expect(h['Accept-Language']).toBe('zh-CN');
  });

  it('GET carries no body and sends its payload as query params', async () => {
    mockFetch(() => json({ code: 0, data: null }));
    await request('/api/auth/sys/dict/region/all', { method: 'GET', data: { a: 1, b: 'x y' } });
    expect(calls[0].url).toBe('/api/auth/sys/dict/region/all?a=1&b=x+y');
    expect(calls[0].init.body).toBeUndefined();
  });

  it('put, patch and delete send bodies; other methods send query params', async () => {
    mockFetch(() => json({ code: 0, data: null }));
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      await request('/api/auth/y', { method, data: { id: 7 } });
    }
    await request('/api/auth/y', { method: 'HEAD', data: { id: 7 } });
    expect(calls.slice(0, 3).map((c) => c.init.body)).toEqual(['{"id":7}', '{"id":7}', '{"id":7}']);
    expect(calls[3].init.body).toBeUndefined();
    expect(calls[3].url).toBe('/api/auth/y?id=7');
  });

  it('sends X-CSRF-Token from the chargeops_csrf cookie on non-GET only', async () => {
    document.cookie = 'chargeops_csrf=tok%2B123; path=/';
    mockFetch(() => json({ code: 0, data: null }));
    await request('/api/auth/a', { method: 'POST', data: {} });
    await request('/api/auth/b', { method: 'GET' });
    expect((calls[0].init.headers as Record<string, string>)[CSRF_HEADER]).toBe('tok+123');
    expect((calls[1].init.headers as Record<string, string>)[CSRF_HEADER]).toBeUndefined();
  });

  it('an identical request in flight cancels the earlier one, which rejects silently', async () => {
    let n = 0;
    mockFetch((url, init) => (++n === 1 ? hangingFetch(url, init) : json({ code: 0, data: 'second' })));
    const first = request('/api/auth/list', { method: 'POST', data: { page: 1 } });
    const second = request('/api/auth/list', { method: 'POST', data: { page: 1 } });
    const err = await first.catch((e: unknown) => e);
    expect(isCancelled(err)).toBe(true);
    expect((err as Error).message).toBe('cancelled');
    await expect(second).resolves.toBe('second');
    expect(calls[0].init.signal?.aborted).toBe(true);
    expect(ui.notifyError).not.toHaveBeenCalled();
  });

  it('requests that differ in body, params, method or URL do not cancel each other', async () => {
    mockFetch((url, init) => (url.includes('slow') ? hangingFetch(url, init) : json({ code: 0, data: 1 })));
    const slow = request('/api/slow', { method: 'POST', data: { page: 1 } });
    void request('/api/slow-other', { method: 'POST', data: { page: 1 } }).catch(() => undefined);
    void request('/api/slow', { method: 'POST', data: { page: 2 } }).catch(() => undefined);
    void request('/api/slow', { method: 'PUT', data: { page: 1 } }).catch(() => undefined);
    void request('/api/slow', { method: 'POST', data: { page: 1 }, params: { x: 1 } }).catch(() => undefined);
    await Promise.resolve();
    expect(calls).toHaveLength(5);
    expect(calls.map((c) => c.init.signal?.aborted)).toEqual([false, false, false, false, false]);
    void slow.catch(() => undefined);
  });

  it('times out after 600000 ms', async () => {
    vi.useFakeTimers();
    mockFetch(hangingFetch);
    const p = request('/api/auth/slow', { method: 'POST' });
    const caught = p.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(calls[0].init.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const err = (await caught) as RequestError;
    expect(err.kind).toBe('timeout');
    expect(ui.notifyError).toHaveBeenCalledWith('t:com_error_timeout');
  });
});

describe('request: codes', () => {
  it('20001-20004 clear the session and show ONE dialog whose OK goes to /login', async () => {
    mockFetch((url) => json({ code: url.endsWith('a') ? 20001 : url.endsWith('b') ? 20002 : 20003, message: 'expired' }));
    const results = await Promise.allSettled([
      request('/api/auth/a', { method: 'POST' }),
      request('/api/auth/b', { method: 'POST' }),
      request('/api/auth/c', { method: 'POST' }),
    ]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(ui.clearSession).toHaveBeenCalledTimes(3);
    expect(ui.showSessionExpired).toHaveBeenCalledTimes(1);
    expect(ui.notifyError).not.toHaveBeenCalled();
    expect(ui.navigate).not.toHaveBeenCalled();
    const onOk = ui.showSessionExpired.mock.calls[0][0] as () => void;
    onOk();
    expect(ui.navigate).toHaveBeenCalledWith('/login');
    // after OK, a later expiry may show the dialog again
    await request('/api/auth/d', { method: 'POST' }).catch(() => undefined);
    expect(ui.showSessionExpired).toHaveBeenCalledTimes(2);
  });

  it('20004 too; but /api/unauth/info only clears the session (no dialog)', async () => {
    mockFetch(() => json({ code: 20004, message: 'disabled' }));
    await expect(request('/api/unauth/info', { method: 'POST' })).rejects.toMatchObject({ kind: 'session', code: 20004 });
    expect(ui.clearSession).toHaveBeenCalledTimes(1);
    expect(ui.showSessionExpired).not.toHaveBeenCalled();
    await request('/api/auth/z', { method: 'POST' }).catch(() => undefined);
    expect(ui.showSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('after a deliberate sign-out, late 20001 answers clear the session without a timeout dialog until the next sign-in', async () => {
    beginSignOut();
    mockFetch((url) => json(url.endsWith('/login') ? { code: 0, data: { tokenId: 't' } } : { code: 20001, message: 'expired' }));
    await request('/api/auth/late', { method: 'POST' }).catch(() => undefined);
    expect(ui.clearSession).toHaveBeenCalledTimes(1);
    expect(ui.showSessionExpired).not.toHaveBeenCalled();
    await request('/api/unauth/login', { method: 'POST' });
    await request('/api/auth/later', { method: 'POST' }).catch(() => undefined);
    expect(ui.showSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('20013 is logged to the console only', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockFetch(() => json({ code: 20013, message: 'no permission' }));
    await expect(request('/api/auth/sys/x', { method: 'POST' })).rejects.toMatchObject({ code: 20013 });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(ui.notifyError).not.toHaveBeenCalled();
    expect(ui.showSessionExpired).not.toHaveBeenCalled();
    expect(ui.clearSession).not.toHaveBeenCalled();
  });

  it('20014 (privacy policy owed) refreshes the session for the modal, without a toast', async () => {
    mockFetch(() => json({ code: 20014, message: 'Please accept the privacy policy first' }));
    await expect(request('/api/auth/sys/home/overview', { method: 'POST' })).rejects.toMatchObject({ kind: 'business', code: 20014 });
    expect(ui.onPrivacyPending).toHaveBeenCalledTimes(1);
    expect(ui.notifyError).not.toHaveBeenCalled();
    expect(ui.showSessionExpired).not.toHaveBeenCalled();
    expect(ui.clearSession).not.toHaveBeenCalled();
  });

  it('any other non-zero code toasts the server message', async () => {
    mockFetch(() => json({ code: 10003, message: 'Device SN already exists' }));
    await expect(request('/api/auth/sys/dev/basic/add', { method: 'POST' })).rejects.toMatchObject({
      kind: 'business',
      code: 10003,
      message: 'Device SN already exists',
    });
    expect(ui.notifyError).toHaveBeenCalledWith('Device SN already exists');
  });

  it.each(SUPPRESSED_MESSAGE_URLS)('does not toast for the suppressed URL %s', async (url) => {
    mockFetch(() => json({ code: 10006, message: 'wrong user name or password' }));
    await expect(request(url, { method: 'POST' })).rejects.toMatchObject({ message: 'wrong user name or password' });
    expect(ui.notifyError).not.toHaveBeenCalled();
  });

  it('a suppressed URL with a query string is still suppressed', async () => {
    mockFetch(() => json({ code: 10002, message: 'gone' }));
    await request('/api/auth/sys/article/detail', { method: 'GET', params: { id: 1 } }).catch(() => undefined);
    expect(calls[0].url).toBe('/api/auth/sys/article/detail?id=1');
    expect(ui.notifyError).not.toHaveBeenCalled();
  });
});

describe('request: HTTP and network failures', () => {
  it('HTTP 404 → com_api_error_404', async () => {
    mockFetch(() => json({ code: 10002, message: 'whatever' }, 404));
    await expect(request('/api/nope')).rejects.toMatchObject({ kind: 'http', status: 404, message: 't:com_api_error_404' });
    expect(ui.notifyError).toHaveBeenCalledWith('t:com_api_error_404');
  });

  it('HTTP 429 and 503 (an overloaded server or proxy) → com_error_busy, "The network is busy"', async () => {
    for (const status of [429, 503]) {
      ui.notifyError.mockClear();
      mockFetch(() => new Response('<html>busy</html>', { status, headers: { 'Content-Type': 'text/html' } }));
      await expect(request('/api/x')).rejects.toMatchObject({ status, message: 't:com_error_busy' });
      expect(ui.notifyError).toHaveBeenCalledWith('t:com_error_busy');
    }
    // an envelope's own message does not hide the busy answer either
    mockFetch(() => json({ code: 10004, message: 'slow down' }, 429));
    await expect(request('/api/x')).rejects.toMatchObject({ status: 429, message: 't:com_error_busy' });
  });

  it('HTTP 500 → com_error_500', async () => {
    mockFetch(() => new Response('boom', { status: 500 }));
    await expect(request('/api/x')).rejects.toMatchObject({ status: 500, message: 't:com_error_500' });
    expect(ui.notifyError).toHaveBeenCalledWith('t:com_error_500');
  });

  it("other non-200 → the server's message, else 'System error!'", async () => {
    mockFetch(() => json({ code: 10001, message: 'body too large' }, 413));
    await expect(request('/api/x', { method: 'POST' })).rejects.toMatchObject({ status: 413, message: 'body too large' });
    mockFetch(() => new Response('', { status: 502 }));
    await expect(request('/api/x', { method: 'POST' })).rejects.toMatchObject({ status: 502, message: 't:com_error_system' });
  });

  it('network failure → com_error_net', async () => {
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(request('/api/x')).rejects.toMatchObject({ kind: 'network', message: 't:com_error_net' });
    expect(ui.notifyError).toHaveBeenCalledWith('t:com_error_net');
  });
});
