import { describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_DELAY_MINUTES,
  formToSetting,
  messageQuery,
  parseUnread,
  settingToForm,
  UNREAD_POLL_MS,
  UNREAD_RETRY_MS,
  UnreadFeed,
  type StreamHandlers,
} from './message';

describe('messageQuery', () => {
  it('keeps paging and the set filters', () => {
    expect(messageQuery({ page: 2, pageSize: 50, kind: 2, read: 0, processed: 1, recovered: 0 })).toEqual({
      page: 2,
      pageSize: 50,
      kind: 2,
      read: 0,
      processed: 1,
      recovered: 0,
    });
  });
  it('leaves out absent, out-of-range and unknown filters', () => {
    expect(messageQuery({ page: 1, pageSize: 20, kind: 7, read: 2, sort: '-time', keyword: 'x' })).toEqual({ page: 1, pageSize: 20 });
    expect(messageQuery({})).toEqual({ page: 1, pageSize: 20 });
  });
  it('reads text values of a hand-edited URL', () => {
    expect(messageQuery({ page: 1, pageSize: 10, kind: '0', processed: '0' })).toEqual({ page: 1, pageSize: 10, kind: 0, processed: 0 });
  });
});

describe('setting form', () => {
  const stored = { kinds: [2, 0], levels: [1], allSites: false, siteIds: [4, 3], console: true, mail: false, frequency: 'delayed', delayMinutes: 60 };
  it('round-trips a stored setting', () => {
    const f = settingToForm(stored);
    expect(f).toEqual({ kinds: [0, 2], levels: [1], allSites: false, siteIds: [4, 3], console: true, mail: false, frequency: 'delayed', delayMinutes: 60 });
    expect(formToSetting(f)).toEqual({ ...stored, kinds: [0, 2] });
  });
  it('sends no sites when all sites are chosen, and a delay in range', () => {
    const s = formToSetting({ ...settingToForm(stored), allSites: true, frequency: 'immediate', delayMinutes: Number.NaN });
    expect(s.siteIds).toEqual([]);
    expect(s.frequency).toBe('immediate');
    expect(s.delayMinutes).toBe(DEFAULT_DELAY_MINUTES);
  });
  it('reads an unknown frequency as immediate and a zero delay as the default', () => {
    const f = settingToForm({ ...stored, frequency: '', delayMinutes: 0 });
    expect(f.frequency).toBe('immediate');
    expect(f.delayMinutes).toBe(DEFAULT_DELAY_MINUTES);
  });
});

describe('parseUnread', () => {
  it('reads the count of an unread event', () => {
    expect(parseUnread('{"count":3}')).toBe(3);
    expect(parseUnread('{"count":0}')).toBe(0);
  });
  it('refuses anything else', () => {
    expect(parseUnread('nope')).toBeNull();
    expect(parseUnread('{"count":-1}')).toBeNull();
    expect(parseUnread('{"count":"3"}')).toBeNull();
    expect(parseUnread('null')).toBeNull();
  });
});

/** A feed over a fake stream, a fake /unread and fake timers (vi). */
function harness(opts: { noEventSource?: boolean } = {}) {
  let handlers: StreamHandlers | null = null;
  const conn = { opened: 0, closed: 0 };
  let server = 0;
  const fetch = vi.fn(async () => server);
  const feed = new UnreadFeed({
    connect: (h) => {
      if (opts.noEventSource) return null;
      handlers = h;
      conn.opened++;
      return () => {
        conn.closed++;
      };
    },
    fetch,
    setTimer: (f, ms) => setTimeout(f, ms),
    clearTimer: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
  });
  const rises: [number, number][] = [];
  feed.onRise((n, b) => rises.push([n, b]));
  return {
    feed,
    fetch,
    conn,
    rises,
    stream: () => handlers as StreamHandlers,
    setServer: (n: number) => {
      server = n;
    },
  };
}

describe('UnreadFeed', () => {
  it('reads once at start, then follows the stream without polling', async () => {
    vi.useFakeTimers();
    const h = harness();
    h.setServer(2);
    h.feed.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.feed.snapshot).toEqual({ count: 2, streamUp: false });
    h.stream().open();
    h.stream().count(2);
    expect(h.feed.snapshot.streamUp).toBe(true);
    await vi.advanceTimersByTimeAsync(UNREAD_POLL_MS * 3);
    expect(h.fetch).toHaveBeenCalledTimes(1);
    h.stream().count(3);
    expect(h.feed.snapshot.count).toBe(3);
    expect(h.rises).toEqual([[3, 2]]);
    h.feed.stop();
    expect(h.conn.closed).toBe(1);
    vi.useRealTimers();
  });

  it('the first reading is not a rise; a fall is not either', async () => {
    vi.useFakeTimers();
    const h = harness();
    h.setServer(5);
    h.feed.start();
    await vi.advanceTimersByTimeAsync(0);
    h.stream().open();
    h.stream().count(1);
    expect(h.rises).toEqual([]);
    h.feed.stop();
    vi.useRealTimers();
  });

  it('polls every 15 s while the stream is down, and stops polling once it is back', async () => {
    vi.useFakeTimers();
    const h = harness();
    h.feed.start();
    await vi.advanceTimersByTimeAsync(0);
    h.stream().open();
    expect(h.fetch).toHaveBeenCalledTimes(1);
    // the stream drops (the browser retries by itself): read at once, then every 15 s
    h.setServer(1);
    h.stream().error(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.feed.snapshot).toEqual({ count: 1, streamUp: false });
    expect(h.fetch).toHaveBeenCalledTimes(2);
    h.setServer(4);
    await vi.advanceTimersByTimeAsync(UNREAD_POLL_MS);
    expect(h.fetch).toHaveBeenCalledTimes(3);
    expect(h.feed.snapshot.count).toBe(4);
    expect(h.rises).toEqual([
      [1, 0],
      [4, 1],
    ]);
    await vi.advanceTimersByTimeAsync(UNREAD_POLL_MS);
    expect(h.fetch).toHaveBeenCalledTimes(4);
    // back: no more polling
    h.stream().open();
    await vi.advanceTimersByTimeAsync(UNREAD_POLL_MS * 4);
    expect(h.fetch).toHaveBeenCalledTimes(4);
    h.feed.stop();
    vi.useRealTimers();
  });

  it('opens a closed stream again after 15 s, polling meanwhile', async () => {
    vi.useFakeTimers();
    const h = harness();
    h.feed.start();
    await vi.advanceTimersByTimeAsync(0);
    h.stream().open();
    h.stream().error(true);
    expect(h.conn).toEqual({ opened: 1, closed: 1 });
    await vi.advanceTimersByTimeAsync(UNREAD_RETRY_MS);
    expect(h.conn.opened).toBe(2);
    expect(h.fetch.mock.calls.length).toBeGreaterThanOrEqual(3);
    h.feed.stop();
    vi.useRealTimers();
  });

  it('polls only when the browser has no EventSource', async () => {
    vi.useFakeTimers();
    const h = harness({ noEventSource: true });
    h.feed.start();
    await vi.advanceTimersByTimeAsync(UNREAD_POLL_MS * 2);
    expect(h.fetch).toHaveBeenCalledTimes(3);
    expect(h.feed.snapshot.streamUp).toBe(false);
    h.feed.stop();
    await vi.advanceTimersByTimeAsync(UNREAD_POLL_MS * 2);
    expect(h.fetch).toHaveBeenCalledTimes(3);
    vi.useRealTimers();
  });

  it('drops an answer that arrives after stop, and starts afresh', async () => {
    vi.useFakeTimers();
    const h = harness();
    h.setServer(7);
    h.feed.start();
    h.feed.stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.feed.snapshot).toEqual({ count: null, streamUp: false });
    h.feed.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.feed.snapshot.count).toBe(7);
    expect(h.rises).toEqual([]);
    h.feed.stop();
    vi.useRealTimers();
  });
});
