// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement, type ReactNode } from 'react';
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createStorageClient, STORAGE_REFRESH_MS } from './storageClient';
import { shareDownload } from './share';
import { useObjectUrl } from './storage';
import { resetRequestState } from './request';

// The spec's "storage client refresh 10 s" (docs/storage.md, "Credentials in the console").
describe('the storage client refreshes its credential after 10 s', () => {
  it('is the spec figure', () => {
    expect(STORAGE_REFRESH_MS).toBe(10_000);
  });

  it('keeps a credential for 10 s, then fetches a new one', async () => {
    let t = 1_000_000;
    let n = 0;
    const client = createStorageClient(async () => ({ n: ++n, expiration: new Date(t + 3600_000).toISOString() }), { now: () => t });
    expect((await client.credential()).n).toBe(1);
    t += 9_999;
    expect((await client.credential()).n).toBe(1);
    t += 1;
    expect((await client.credential()).n).toBe(2);
    t += 5_000;
    expect((await client.credential()).n).toBe(2);
  });

  it('shares one fetch between callers asking at once', async () => {
    let n = 0;
    const client = createStorageClient(async () => ({ n: ++n }));
    const got = await Promise.all([client.credential(), client.credential(), client.credential()]);
    expect(got.map((c) => c.n)).toEqual([1, 1, 1]);
  });

  it('never uses an expired credential, even within 10 s', async () => {
    let t = 1_000_000;
    let n = 0;
    const client = createStorageClient(async () => ({ n: ++n, expiration: new Date(t + 2_000).toISOString() }), { now: () => t });
    await client.credential();
    t += 2_000;
    expect((await client.credential()).n).toBe(2);
  });

  it('keeps no refused fetch: the next use asks again', async () => {
    let n = 0;
    const client = createStorageClient(async () => {
      n++;
      if (n === 1) throw new Error('refused');
      return { n };
    });
    await expect(client.credential()).rejects.toThrow('refused');
    expect((await client.credential()).n).toBe(2);
  });
});

type Call = { url: string };
let calls: Call[];
let answer: (url: string) => Response;

function envelope(data: unknown, code = 0, message = '') {
  return new Response(JSON.stringify({ code, message, data }), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  resetRequestState();
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      calls.push({ url: String(input) });
      return answer(String(input));
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('signed-out read credential of the share page', () => {
  const credential = (n: number) => ({
    accessKeyId: 'chargeops-signed-url',
    accessKeySecret: '',
    securityToken: `sig=${n}`,
    expiration: new Date(Date.now() + 3600_000).toISOString(),
    region: 'oss-cn-hongkong',
    bucket: 'local',
    url: `/api/unauth/oss/object/docs/a.pdf?sig=${n}`,
    expiresAt: Date.now() + 3600_000,
  });

  it('asks /api/unauth/oss/sts/read, reuses the credential for 10 s, then refreshes it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let n = 0;
    answer = () => envelope(credential(++n));
    const token = 'a'.repeat(32);
    const first = await shareDownload(token, '1234');
    expect(first.url).toBe('/api/unauth/oss/object/docs/a.pdf?sig=1');
    expect(first.accessKeyId).toBe('chargeops-signed-url');
    expect(calls[0].url).toBe(`/api/unauth/oss/sts/read?token=${token}&code=1234`);
    vi.setSystemTime(Date.now() + 9_000);
    expect((await shareDownload(token, '1234')).url).toBe(first.url);
    expect(calls).toHaveLength(1);
    vi.setSystemTime(Date.now() + 1_000);
    expect((await shareDownload(token, '1234')).url).toBe('/api/unauth/oss/object/docs/a.pdf?sig=2');
    expect(calls).toHaveLength(2);
  });

  it('checks a wrong code with the server every time', async () => {
    answer = () => envelope(null, 10001, 'Wrong access code (4 tries left)');
    const token = 'b'.repeat(32);
    await expect(shareDownload(token, '0000')).rejects.toMatchObject({ code: 10001 });
    await expect(shareDownload(token, '0000')).rejects.toMatchObject({ code: 10001 });
    expect(calls).toHaveLength(2);
  });
});

describe('signed-in read credentials (display links)', () => {
  it('are fetched again when used 10 s after their fetch, not before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let n = 0;
    answer = () => envelope({ url: `/api/unauth/oss/object/images/a.png?sig=${++n}` });
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client: qc }, children);

    const first = renderHook(() => useObjectUrl('images/a.png'), { wrapper });
    await waitFor(() => expect(first.result.current.url).toBe('/api/unauth/oss/object/images/a.png?sig=1'));
    first.unmount();

    vi.setSystemTime(Date.now() + 9_000);
    const again = renderHook(() => useObjectUrl('images/a.png'), { wrapper });
    expect(again.result.current.url).toBe('/api/unauth/oss/object/images/a.png?sig=1');
    again.unmount();
    expect(calls).toHaveLength(1);

    vi.setSystemTime(Date.now() + 1_500);
    const later = renderHook(() => useObjectUrl('images/a.png'), { wrapper });
    await waitFor(() => expect(later.result.current.url).toBe('/api/unauth/oss/object/images/a.png?sig=2'));
    expect(calls).toHaveLength(2);
    later.unmount();
  });
});
