import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { lazyPage } from './lazyPage';

afterEach(cleanup);

const Hello = () => <span>hello</span>;

describe('lazyPage', () => {
  it('a preloaded page renders in the first commit, without suspending', async () => {
    const page = lazyPage(async () => ({ default: Hello }));
    const m = await page.preload();
    expect(m?.default).toBe(Hello);
    const Page = page;
    render(
      <Suspense fallback={<span>loading</span>}>
        <Page />
      </Suspense>,
    );
    expect(screen.queryByText('hello')).not.toBeNull();
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('a page not yet loaded suspends, then shows', async () => {
    const page = lazyPage(async () => ({ default: Hello }));
    const Page = page;
    render(
      <Suspense fallback={<span>loading</span>}>
        <Page />
      </Suspense>,
    );
    expect(screen.queryByText('loading')).not.toBeNull();
    expect(await screen.findByText('hello')).not.toBeNull();
  });

  it('the chunk is fetched once however often it is preloaded', async () => {
    const loader = vi.fn(async () => ({ default: Hello }));
    const page = lazyPage(loader);
    await Promise.all([page.preload(), page.preload()]);
    await page.preload();
    expect(loader).toHaveBeenCalledTimes(1);
  });

  it('a chunk that fails to load resolves preload with nothing, and the next preload tries again', async () => {
    const loader = vi
      .fn<() => Promise<{ default: typeof Hello }>>()
      .mockRejectedValueOnce(Object.assign(new Error('Failed to fetch dynamically imported module: /assets/x.js'), {}))
      .mockResolvedValueOnce({ default: Hello });
    const page = lazyPage(loader);
    expect(await page.preload()).toBeUndefined();
    expect((await page.preload())?.default).toBe(Hello);
    expect(loader).toHaveBeenCalledTimes(2);
  });
});
