import { lazy, type ComponentType } from 'react';
import { isChunkLoadError, withChunkTimeout } from '../utils/chunkError';
import { ChunkLoadFailed } from './RouteError';

/** React.lazy over a page loader; a chunk that fails to load shows the reload view. */
export function lazyPage(loader: () => Promise<{ default: ComponentType }>) {
  return lazy(() =>
    withChunkTimeout(loader()).catch((e: unknown) => {
      if (isChunkLoadError(e)) return { default: ChunkLoadFailed };
      throw e;
    }),
  );
}
