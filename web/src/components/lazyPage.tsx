import { lazy, type ComponentType } from 'react';
import { isChunkLoadError, withChunkTimeout } from '../utils/chunkError';
import { ChunkLoadFailed } from './RouteError';

import type { PageModule } from '../utils/routeDef';

export type { PageModule };

export interface LazyPage {
  (): React.JSX.Element;
  /** Loads the chunk (once); resolves with the module, or undefined when it failed to load. */
  preload(): Promise<PageModule | undefined>;
}

/**
 * A page loaded on demand. Once its chunk is in (preload, from the route loader or the idle
 * prefetch), it renders synchronously: React.lazy would suspend on first render even for a loaded
 * module, and React throttles the reveal of a suspended boundary by 300 ms, which a click on the
 * sidebar would wait for. A chunk that fails to load shows the reload view.
 */
export function lazyPage(loader: () => Promise<PageModule>): LazyPage {
  let loaded: ComponentType | undefined;
  let pending: Promise<PageModule> | undefined;
  const load = () =>
    (pending ??= withChunkTimeout(loader()).then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (e: unknown) => {
        pending = undefined; // the next visit tries again
        if (isChunkLoadError(e)) return { default: ChunkLoadFailed };
        throw e;
      },
    ));
  const Lazy = lazy(load);
  const Page = () => {
    const Component = loaded ?? Lazy;
    return <Component />;
  };
  Page.preload = () => load().then(
    (m) => (loaded ? m : undefined),
    () => undefined,
  );
  return Page;
}
