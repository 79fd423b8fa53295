/**
 * Live refresh of the dashboards (docs/dashboards.md, "Live"): refetch at most once a second
 * after a pushed status change in the page's scope, and poll every 30 s while the status stream
 * is down (docs/dashboards.md#live). The throttle is pure and tested in useLiveRefresh.test.ts.
 */
import { useEffect, useRef } from 'react';
import { onStatusChange, useStatusStream, type StatusNotice } from './useStatusStream';
import { pollInterval } from '../utils/fleet';

/** At most one refetch a second after changes. */
export const LIVE_REFRESH_MS = 1000;

interface Clock {
  now: () => number;
  set: (f: () => void, ms: number) => ReturnType<typeof setTimeout>;
  clear: (t: ReturnType<typeof setTimeout>) => void;
}
const realClock: Clock = { now: () => Date.now(), set: (f, ms) => setTimeout(f, ms), clear: (t) => clearTimeout(t) };

/**
 * A throttle with a leading and a trailing call: the first call runs `fn` at once; calls within
 * `ms` of the last run are folded into one run when the `ms` are over.
 */
export function createThrottle(fn: () => void, ms: number, clock: Clock = realClock) {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    last = clock.now();
    fn();
  };
  return {
    call() {
      if (timer !== undefined) return;
      const wait = last + ms - clock.now();
      if (wait <= 0) fire();
      else timer = clock.set(fire, wait);
    },
    cancel() {
      if (timer !== undefined) clock.clear(timer);
      timer = undefined;
    },
  };
}

/**
 * Keeps the status stream open and calls `refresh` (throttled to once a second) after each
 * pushed change that `matches` (default: any). Returns whether the stream is up and the
 * fallback polling interval (30 s while it is down, else false) for `refetchInterval`.
 */
export function useLiveRefresh(refresh: () => unknown, matches?: (n: StatusNotice) => boolean): { streamUp: boolean; pollMs: number | false } {
  const streamUp = useStatusStream();
  const ref = useRef({ refresh, matches });
  useEffect(() => {
    ref.current = { refresh, matches };
  });
  useEffect(() => {
    const t = createThrottle(() => void ref.current.refresh(), LIVE_REFRESH_MS);
    const off = onStatusChange((n) => {
      const m = ref.current.matches;
      if (!m || m(n)) t.call();
    });
    return () => {
      off();
      t.cancel();
    };
  }, []);
  return { streamUp, pollMs: pollInterval(streamUp) };
}
