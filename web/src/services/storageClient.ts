/**
 * The console's storage client (docs/storage.md, "Credentials in the console"): it holds the
 * last storage credential it was given and fetches a new one when it is used 10 s or more
 * after it was fetched (the spec's "storage client refresh 10 s"), or once it has expired.
 * Callers asking at the same time share one fetch; a refused fetch is not kept, so the next
 * use asks again (a wrong share code is checked by the server every time).
 */

/** The spec's storage client refresh: a credential is used at most this long after its fetch. */
export const STORAGE_REFRESH_MS = 10_000;

export interface StorageClientOptions {
  refreshMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

export interface StorageClient<C> {
  /** The held credential while it is fresh, else a new one. */
  credential(): Promise<C>;
  /** Drops the held credential: the next use fetches. */
  reset(): void;
}

/** Milliseconds of an RFC 3339 `expiration` (NaN when there is none). */
function expiresAt(c: unknown): number {
  const e = (c as { expiration?: unknown } | null)?.expiration;
  return typeof e === 'string' && e ? Date.parse(e) : NaN;
}

export function createStorageClient<C>(fetchCredential: () => Promise<C>, o: StorageClientOptions = {}): StorageClient<C> {
  const refreshMs = o.refreshMs ?? STORAGE_REFRESH_MS;
  const now = o.now ?? Date.now;
  let held: { value: C; at: number } | undefined;
  let pending: Promise<C> | undefined;
  const fresh = (h: { value: C; at: number }) => {
    const t = now();
    const exp = expiresAt(h.value);
    return t - h.at < refreshMs && !(exp <= t);
  };
  return {
    credential() {
      if (held && fresh(held)) return Promise.resolve(held.value);
      pending ??= fetchCredential().then(
        (value) => {
          held = { value, at: now() };
          pending = undefined;
          return value;
        },
        (e: unknown) => {
          held = undefined;
          pending = undefined;
          throw e;
        },
      );
      return pending;
    },
    reset() {
      held = undefined;
    },
  };
}
