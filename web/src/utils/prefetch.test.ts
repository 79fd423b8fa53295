import { describe, expect, it, vi } from 'vitest';
import { menuPages, prefetchPages } from './prefetch';
import type { MenuNode } from './menu';
import type { PageLoader } from './routeDef';

const page = (): PageLoader => vi.fn(() => Promise.resolve({ default: () => null }));

describe('page prefetching', () => {
  it('collects each item page once, in menu order, through submenus and groups', () => {
    const a = page();
    const b = page();
    const nodes: MenuNode[] = [
      { kind: 'item', key: '/manage/home', name: 'home', page: a },
      { kind: 'submenu', key: 'sub:/manage/device', name: 'dev', children: [{ kind: 'item', key: '/manage/device/list', name: 'list', page: b }] },
      { kind: 'group', key: 'group:x', name: 'x', children: [{ kind: 'item', key: '/manage/home2', name: 'again', page: a }, { kind: 'item', key: 'ext:1', name: 'link' }] },
    ];
    expect(menuPages(nodes)).toEqual([a, b]);
  });

  it('loads one page per idle moment, goes on after a failure, and stops when told', async () => {
    const queue: (() => void)[] = [];
    const schedule = (run: () => void) => {
      queue.push(run);
      return () => undefined;
    };
    const failing: PageLoader = vi.fn(() => Promise.reject(new Error('chunk')));
    const [p1, p3] = [page(), page()];
    const stop = prefetchPages([p1, failing, p3], schedule);
    expect(queue).toHaveLength(1);
    queue.shift()!();
    await vi.waitFor(() => expect(queue).toHaveLength(1));
    expect(p1).toHaveBeenCalledOnce();
    queue.shift()!();
    await vi.waitFor(() => expect(queue).toHaveLength(1));
    expect(failing).toHaveBeenCalledOnce();
    stop();
    queue.shift()!();
    await Promise.resolve();
    expect(p3).not.toHaveBeenCalled();
    await new Promise((r) => setTimeout(r, 10));
    expect(queue).toHaveLength(0);
  });
});
