import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createThrottle } from './useLiveRefresh';

describe('createThrottle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(10_000);
  });
  afterEach(() => vi.useRealTimers());

  it('runs the first call at once and folds the calls of the next second into one', () => {
    const fn = vi.fn();
    const t = createThrottle(fn, 1000);
    t.call();
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(200);
    t.call();
    t.call();
    t.call();
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(799);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(5000);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('runs at once again after a quiet second', () => {
    const fn = vi.fn();
    const t = createThrottle(fn, 1000);
    t.call();
    vi.advanceTimersByTime(1500);
    t.call();
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('drops the pending run when cancelled', () => {
    const fn = vi.fn();
    const t = createThrottle(fn, 1000);
    t.call();
    t.call();
    t.cancel();
    vi.advanceTimersByTime(2000);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
