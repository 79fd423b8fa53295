/** Recognises failures to load a code-split chunk (script or CSS), docs/architecture.md#the-console-in-the-binary. */
export const CSS_CHUNK_LOAD_FAILED = 'CSS_CHUNK_LOAD_FAILED';
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

const patterns = [
  /Loading chunk [\w-]+ failed/i,
  /Loading CSS chunk [\w-]+ failed/i,
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /Unable to preload CSS/i,
];

export function isChunkLoadError(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const err = e as { code?: unknown; message?: unknown; name?: unknown };
  if (err.code === CSS_CHUNK_LOAD_FAILED) return true;
  if (err.name === 'ChunkLoadError') return true;
  const msg = typeof err.message === 'string' ? err.message : '';
  return patterns.some((p) => p.test(msg));
}

/** Rejects a chunk import that takes longer than the chunk-load timeout (docs/architecture.md#the-console-in-the-binary). */
export function withChunkTimeout<T>(p: Promise<T>, ms = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(Object.assign(new Error('Loading chunk timeout failed'), { name: 'ChunkLoadError' })), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
