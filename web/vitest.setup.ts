import { afterAll, afterEach, vi } from 'vitest';

// Tests of pure functions run on the node environment (vite.config.ts): they have no DOM and
// need none of this, so @testing-library/react (react-dom with it) is imported only under jsdom.
if (typeof document !== 'undefined') {
  const { cleanup, configure } = await import('@testing-library/react');

  // lazy page chunks are transformed on first use: give findBy* more than the default 1 s
  configure({ asyncUtilTimeout: 5000 });

  // antd needs these browser APIs that jsdom lacks
  if (!window.matchMedia) {
    Object.defineProperty(window, 'matchMedia', {
      writable: true,
      value: vi.fn((query: string) => ({
        matches: false,
        media: query,
        onchange: null,
        addListener: vi.fn(),
        removeListener: vi.fn(),
        addEventListener: vi.fn(),
        removeEventListener: vi.fn(),
        dispatchEvent: vi.fn(),
      })),
    });
  }
  if (!('ResizeObserver' in window)) {
    (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  }

  afterEach(() => {
    cleanup();
    sessionStorage.clear();
    localStorage.clear();
  });

  // React's scheduler may still hold work when a file's last test ends (a lazy page resolving on a
  // loaded machine): let it run while the DOM exists, or it throws "window is not defined" once
  // jsdom is torn down (seen in CI as an unhandled error of app.test.tsx).
  afterAll(async () => {
    cleanup();
    await new Promise((resolve) => setTimeout(resolve, 200));
  });
}
