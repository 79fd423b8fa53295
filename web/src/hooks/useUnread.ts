/**
 * The caller's unread message count for the header's badge: one UnreadFeed per tab (pushes of
 * GET message/stream, like useStatusStream's EventSource; 15 s polling of message/unread while
 * the stream is down). Kept light: it is part of every console page's first load.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { MESSAGE_STREAM_URL, unreadCount } from '../services/message';
import { parseUnread, UnreadFeed, type StreamHandlers, type UnreadState } from '../utils/message';

function connect(h: StreamHandlers): (() => void) | null {
  if (typeof EventSource === 'undefined') return null;
  const es = new EventSource(MESSAGE_STREAM_URL, { withCredentials: true });
  es.onopen = () => h.open();
  es.addEventListener('unread', (e) => {
    const n = parseUnread((e as MessageEvent<string>).data);
    if (n !== null) h.count(n);
  });
  es.onerror = () => h.error(es.readyState === EventSource.CLOSED);
  return () => es.close();
}

export const unreadFeed = new UnreadFeed({
  connect,
  fetch: async () => (await unreadCount()).count,
  setTimer: (f, ms) => setTimeout(f, ms),
  clearTimer: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
});

let users = 0;

/** Keeps the feed running while mounted (and enabled); answers its state. */
export function useUnread(enabled = true): UnreadState {
  useEffect(() => {
    if (!enabled) return;
    users++;
    unreadFeed.start();
    return () => {
      users--;
      if (users === 0) unreadFeed.stop();
    };
  }, [enabled]);
  return useSyncExternalStore(
    (l) => unreadFeed.subscribe(l),
    () => unreadFeed.snapshot,
  );
}

/** Re-reads the count now (after marking messages read or processed in this tab). */
export function refreshUnread(): void {
  void unreadFeed.refresh();
}
