/**
 * Live device status (docs/dashboards.md#live, docs/gateway.md): one EventSource on
 * GET /api/auth/sys/dev/events/stream per tab, shared by every screen that shows device status.
 * Each `event: status` patches the cached device lists and details at once, and is kept in a
 * StatusBook so that a list answer fetched before it cannot undo it (`liveFetcher`). While the
 * stream is down the screens poll every 30 s instead (`pollInterval`).
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { Query } from '@tanstack/react-query';
import { queryClient } from '../services/queryClient';
import { STATUS_STREAM_URL, fleetKeys } from '../services/fleet';
import { parseStatusEvent, patchPage, patchRow, StatusBook, type StatusChange } from '../utils/fleet';
import { deviceKeys } from '../services/deviceKeys';

export const statusBook = new StatusBook();

/** Query-key roots holding device list pages: the device list and a site's devices (deviceKeys.lists). */
export function isDeviceListKey(root: unknown): boolean {
  return root === deviceKeys.lists[0];
}

const RETRY_CLOSED_MS = 15_000;
let source: EventSource | null = null;
let users = 0;
let up = false;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let countTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function setUp(v: boolean) {
  if (up === v) return;
  up = v;
  listeners.forEach((l) => l());
}

/** Applies one change to every cached query that shows it. */
export function applyStatusChange(c: StatusChange, at = Date.now()): void {
  statusBook.record(c, at);
  queryClient.setQueriesData({ predicate: (q: Query) => isDeviceListKey(q.queryKey[0]) }, (d: unknown) =>
    patchPage(d as { list: { id: number; status: number; alarmStatus: number }[] } | undefined, c),
  );
  queryClient.setQueryData(deviceKeys.detail(c.deviceId), (d: { id: number; status: number; alarmStatus: number } | undefined) => (d ? patchRow(d, c) : d));
  void queryClient.invalidateQueries({ queryKey: fleetKeys.runtime(c.deviceId) });
  // the device page's basic information (software version reported at boot) is re-read too
  void queryClient.invalidateQueries({ queryKey: deviceKeys.detail(c.deviceId) });
  void queryClient.invalidateQueries({ queryKey: fleetKeys.events(c.deviceId) });
  // an upgrade's row in the command history (its step ends with the firmware status)
  void queryClient.invalidateQueries({ queryKey: fleetKeys.commands(c.deviceId) });
  clearTimeout(countTimer);
  countTimer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: deviceKeys.counts }), 1000);
}

/** A pushed change with the place of its device, for dashboards that refetch on changes in their scope. */
export type StatusNotice = StatusChange & { siteId?: number; customerId?: number };
const noticeListeners = new Set<(n: StatusNotice) => void>();

/** Calls `l` with every pushed status change (while some screen keeps the stream open); returns the unsubscribe. */
export function onStatusChange(l: (n: StatusNotice) => void): () => void {
  noticeListeners.add(l);
  return () => noticeListeners.delete(l);
}

function notifyStatusChange(c: StatusChange, data: string) {
  if (!noticeListeners.size) return;
  let place: { siteId?: unknown; customerId?: unknown } = {};
  try {
    place = JSON.parse(data) as typeof place;
  } catch {
    /* parseStatusEvent accepted it, so it is JSON */
  }
  const n: StatusNotice = { ...c };
  if (typeof place.siteId === 'number') n.siteId = place.siteId;
  if (typeof place.customerId === 'number') n.customerId = place.customerId;
  noticeListeners.forEach((l) => l(n));
}

function open() {
  if (source || typeof EventSource === 'undefined') return;
  const es = new EventSource(STATUS_STREAM_URL, { withCredentials: true });
  source = es;
  es.onopen = () => setUp(true);
  es.addEventListener('status', (e) => {
    const data = (e as MessageEvent<string>).data;
    const c = parseStatusEvent(data);
    if (c) {
      applyStatusChange(c);
      notifyStatusChange(c, data);
    }
  });
  es.onerror = () => {
    setUp(false);
    // CONNECTING: the browser retries by itself (retry: 5000). CLOSED (an error answer such as
    // an expired session): open again later; polling covers the gap.
    if (es.readyState === EventSource.CLOSED) {
      es.close();
      if (source === es) source = null;
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => users > 0 && open(), RETRY_CLOSED_MS);
    }
  };
}

function close() {
  clearTimeout(retryTimer);
  source?.close();
  source = null;
  setUp(false);
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** Keeps the stream open while mounted; true while it is connected. */
export function useStatusStream(enabled = true): boolean {
  useEffect(() => {
    if (!enabled) return;
    users++;
    open();
    return () => {
      users--;
      if (users === 0) close();
    };
  }, [enabled]);
  return useSyncExternalStore(subscribe, () => up);
}

/** A list fetcher whose rows get the pushed changes received since the fetch started. */
export function liveFetcher<Q, P extends { list: { id: number; status: number; alarmStatus: number }[] }>(fetch: (q: Q) => Promise<P>) {
  return async (q: Q): Promise<P> => {
    const at = Date.now();
    const page = await fetch(q);
    const list = statusBook.overlay(page.list, at);
    return list === page.list ? page : { ...page, list };
  };
}
