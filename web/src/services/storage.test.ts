// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement, type ReactNode } from 'react';
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { LINK_REFRESH_MS, LINK_TTL_MS, uploadErrorMessage, uploadObject, UploadError, useObjectUrl } from './storage';
import { RequestError, resetRequestState } from './request';

type Call = { url: string; method: string; body?: unknown };
let calls: Call[];
let answers: Record<string, (c: Call) => unknown>;

function envelope(data: unknown) {
  return new Response(JSON.stringify({ code: 0, data }), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  resetRequestState();
  calls = [];
  answers = {};
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = String(input);
      const c: Call = { url, method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(c);
      const path = url.split('?')[0];
      const a = answers[path];
      if (!a) return new Response('', { status: 404 });
      const r = a(c);
      return r instanceof Response ? r : envelope(r);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A fake XMLHttpRequest: records the direct upload and answers with `status`. */
function fakeXhr(status: number, responseText = '') {
  const sent: { method: string; url: string; headers: Record<string, string>; body: unknown }[] = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private req = { method: '', url: '', headers: {} as Record<string, string>, body: undefined as unknown };
    open(method: string, url: string) {
      this.req.method = method;
      this.req.url = url;
    }
    setRequestHeader(k: string, v: string) {
      this.req.headers[k] = v;
    }
    abort() {
      this.onabort?.();
    }
    send(body: unknown) {
      this.req.body = body;
      sent.push(this.req);
      setTimeout(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 });
        this.status = status;
        this.responseText = responseText;
        this.onload?.();
      }, 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

const grant = {
  objectKey: 'images/00aa-1.png',
  maxBytes: 20 << 20,
  upload: { method: 'PUT', url: '/api/unauth/oss/object/images/00aa-1.png?exp=1&sig=x', headers: { 'Content-Type': 'image/png' }, fields: {} },
};

describe('uploadObject', () => {
  it('asks for a target, sends the file there with its headers, then confirms the key', async () => {
    answers['/api/auth/sys/system/oss/sts/write'] = () => grant;
    answers['/api/auth/sys/system/oss/confirm'] = (c) => ({ objectKey: (c.body as { objectKey: string }).objectKey, url: '/signed', size: 4, contentType: 'image/png', downloadFileName: '' });
    const sent = fakeXhr(201);
    const progress: number[] = [];
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'site.png', { type: 'image/png' });
    const done = await uploadObject(file, 'image', { onProgress: (p) => progress.push(p) });
    expect(done.objectKey).toBe('images/00aa-1.png');
    expect(calls[0].url).toBe('/api/auth/sys/system/oss/sts/write?kind=image&fileName=site.png');
    expect(sent).toHaveLength(1);
    expect(sent[0].method).toBe('PUT');
    expect(sent[0].url).toBe(grant.upload.url);
    expect(sent[0].headers['Content-Type']).toBe('image/png');
    expect(sent[0].body).toBe(file);
    expect(calls[1]).toMatchObject({ method: 'POST', url: '/api/auth/sys/system/oss/confirm', body: { objectKey: 'images/00aa-1.png' } });
    expect(progress).toEqual([0, 50, 100]);
  });

  it('sends a multipart form with the fields first for a POST target', async () => {
    answers['/api/auth/sys/system/oss/sts/write'] = () => ({ ...grant, upload: { method: 'POST', url: 'https://bucket.example.com/', headers: {}, fields: { key: 'images/00aa-1.png', policy: 'p' } } });
    answers['/api/auth/sys/system/oss/confirm'] = () => ({ objectKey: 'images/00aa-1.png', url: '', size: 4, contentType: 'image/png', downloadFileName: '' });
    const sent = fakeXhr(204);
    await uploadObject(new File(['x'], 'a.png'), 'image');
    const form = sent[0].body as FormData;
    expect([...form.keys()]).toEqual(['key', 'policy', 'file']);
    expect(sent[0].headers['Accept-Language']).toBeUndefined(); // another origin
  });

  it('refuses a file by the rules before any call', async () => {
    const e = await uploadObject(new File(['<svg/>'], 'x.svg'), 'image').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UploadError);
    expect(calls).toEqual([]);
    const t = (k: string, p?: Record<string, string>) => `${k}:${JSON.stringify(p)}`;
    expect(uploadErrorMessage(e, t)).toBe('upload.type:{"typeList":"jpg, jpeg, png"}');
  });

  it("shows the storage's refusal message and does not confirm", async () => {
    answers['/api/auth/sys/system/oss/sts/write'] = () => grant;
    fakeXhr(400, JSON.stringify({ code: 10001, message: 'Only jpg, jpeg, png can be uploaded' }));
    const e = await uploadObject(new File(['hello'], 'fake.png'), 'image').catch((x: unknown) => x);
    expect(uploadErrorMessage(e, (k) => k)).toBe('Only jpg, jpeg, png can be uploaded');
    expect(calls.map((c) => c.url)).not.toContain('/api/auth/sys/system/oss/confirm');
  });

  it('stays silent for a cancelled upload', () => {
    expect(uploadErrorMessage(new RequestError('cancelled', 'cancelled'), (k) => k)).toBeNull();
  });
});

describe('useObjectUrl', () => {
  function wrapper() {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    return ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client: qc }, children);
  }

  it('shows data: and http(s) URLs as they are, without a call', () => {
    const { result } = renderHook(() => useObjectUrl('data:image/png;base64,AAAA'), { wrapper: wrapper() });
    expect(result.current).toEqual({ url: 'data:image/png;base64,AAAA', loading: false, failed: false });
    const { result: r2 } = renderHook(() => useObjectUrl('https://x.example/a.png'), { wrapper: wrapper() });
    expect(r2.current.url).toBe('https://x.example/a.png');
    expect(calls).toEqual([]);
  });

  it('signs an objectKey through oss/url', async () => {
    answers['/api/auth/sys/system/oss/url'] = () => ({ url: '/api/unauth/oss/object/images/a.png?sig=1' });
    const { result } = renderHook(() => useObjectUrl('images/a.png'), { wrapper: wrapper() });
    expect(result.current.loading).toBe(true);
    await waitFor(() => expect(result.current.url).toBe('/api/unauth/oss/object/images/a.png?sig=1'));
    expect(calls[0].url).toBe('/api/auth/sys/system/oss/url?objectKey=images%2Fa.png');
  });

  it('gives no URL for an empty value or a key without a dot', () => {
    expect(renderHook(() => useObjectUrl(''), { wrapper: wrapper() }).result.current.url).toBeUndefined();
    expect(renderHook(() => useObjectUrl('images/nodot'), { wrapper: wrapper() }).result.current.url).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('reports a key the server does not sign as failed', async () => {
    answers['/api/auth/sys/system/oss/url'] = () => new Response(JSON.stringify({ code: 10004, message: 'Not found' }), { status: 200 });
    const { result } = renderHook(() => useObjectUrl('images/gone.png'), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.failed).toBe(true));
  });

  it('refreshes signed links before they expire', () => {
    expect(LINK_REFRESH_MS).toBeLessThan(LINK_TTL_MS);
    expect(LINK_TTL_MS).toBe(3600_000);
  });
});

describe('signed URLs asked together', () => {
  function wrapper() {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    return ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client: qc }, children);
  }

  it('share one sts/read call', async () => {
    answers['/api/auth/sys/system/oss/sts/read'] = () => ({ expiration: '', region: '', bucket: '', urls: { 'images/a.png': '/a?sig', 'images/b.png': '/b?sig' } });
    const { result } = renderHook(() => [useObjectUrl('images/a.png'), useObjectUrl('images/b.png'), useObjectUrl('images/a.png')], { wrapper: wrapper() });
    await waitFor(() => expect(result.current.map((r) => r.url)).toEqual(['/a?sig', '/b?sig', '/a?sig']));
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/sys/system/oss/sts/read?objectKey=images%2Fa.png&objectKey=images%2Fb.png']);
  });

  it('fall back to one call per key when the batch is refused', async () => {
    answers['/api/auth/sys/system/oss/sts/read'] = () => new Response(JSON.stringify({ code: 10004, message: 'Not found' }), { status: 200 });
    answers['/api/auth/sys/system/oss/url'] = (c) =>
      c.url.includes('gone') ? new Response(JSON.stringify({ code: 10004, message: 'Not found' }), { status: 200 }) : { url: '/ok?sig' };
    const { result } = renderHook(() => [useObjectUrl('images/ok.png'), useObjectUrl('images/gone.png')], { wrapper: wrapper() });
    await waitFor(() => expect(result.current[1].failed).toBe(true));
    await waitFor(() => expect(result.current[0].url).toBe('/ok?sig'));
    expect(calls.filter((c) => c.url.startsWith('/api/auth/sys/system/oss/url'))).toHaveLength(2);
  });
});
