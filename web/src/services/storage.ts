/**
 * Object storage (docs/storage.md, docs/api.md "Uploads"): uploads go from the browser straight
 * to storage with the signed target `oss/sts/write` hands out (for the local-disk back-end a
 * signed URL of chargeops itself), then `oss/confirm` checks and records them; stored values
 * (objectKeys) become display URLs through `oss/url`, signed for LINK_TTL_MS.
 */
import { useQuery } from '@tanstack/react-query';
import { get, post, requestUi, RequestError } from './request';
import type { ApiData } from './typings';
import { checkUpload, storedValueKind, type UploadKind, type UploadProblem } from '../utils/uploadRules';
import { STORAGE_REFRESH_MS } from './storageClient';

export type WriteGrant = ApiData<'/api/auth/sys/system/oss/sts/write', 'get'>;
export type Uploaded = ApiData<'/api/auth/sys/system/oss/confirm', 'post'>;
export type ReadGrant = ApiData<'/api/auth/sys/system/oss/sts/read', 'get'>;

/** Signed links are valid 3600 s (docs/storage.md); display URLs are fetched again before. */
export const LINK_TTL_MS = 3600_000;
export const LINK_REFRESH_MS = LINK_TTL_MS - 10 * 60_000;

export const storageKeys = {
  all: ['oss'] as const,
  url: (value: string) => ['oss', 'url', value] as const,
};

const base = '/api/auth/sys/system/oss';
// Callers show the errors of these calls themselves (in the field that uploads).
export const getWriteGrant = (kind: UploadKind, fileName: string, downloadFileName?: string) =>
  get<WriteGrant>(`${base}/sts/write`, { kind, fileName, downloadFileName: downloadFileName || undefined }, { silent: true });
export const confirmUpload = (objectKey: string) => post<Uploaded>(`${base}/confirm`, { objectKey }, { silent: true });
export const getObjectUrl = (objectKey: string) => get<{ url: string }>(`${base}/url`, { objectKey }, { silent: true });
export const getReadGrant = (objectKeys: string[]) => get<ReadGrant>(`${base}/sts/read`, { objectKey: objectKeys }, { silent: true });

/**
 * A refused upload. `problem` is set when the browser refused the file by the rules (the caller
 * translates it); otherwise the message is the server's, already in the user's language.
 */
export class UploadError extends Error {
  readonly problem?: UploadProblem;
  constructor(message: string, problem?: UploadProblem) {
    super(message);
    this.name = 'UploadError';
    this.problem = problem;
  }
}

export interface UploadOptions {
  /** Downloads of the object get this name (Content-Disposition). */
  downloadFileName?: string;
  /** The name asked for at sts/write when it differs from the file's ("docs/<name>": the folder from the prefix). */
  objectName?: string;
  /** 0-100 while the file is sent. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  /** The file must have exactly this name (a required file name); else "file name mismatch". */
  requiredName?: string;
}

function sameOrigin(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/** The message of a refused direct upload: the envelope's (local back-end), else a generic one. */
function refusal(xhr: XMLHttpRequest): string {
  try {
    const env = JSON.parse(xhr.responseText) as { message?: unknown };
    if (typeof env.message === 'string' && env.message) return env.message;
  } catch {
    /* S3 answers XML */
  }
  return requestUi().t(xhr.status === 0 ? 'com_error_net' : 'upload.failed');
}

/** Sends the file to the signed target: PUT with the raw body, or POST with a multipart form. */
export function sendToTarget(file: Blob, target: WriteGrant['upload'], o: UploadOptions = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const method = (target.method || 'PUT').toUpperCase();
    xhr.open(method, target.url);
    let body: Blob | FormData = file;
    if (method === 'POST') {
      const form = new FormData();
      for (const [k, v] of Object.entries(target.fields ?? {})) form.append(k, v);
      form.append('file', file);
      body = form;
    } else {
      for (const [k, v] of Object.entries(target.headers ?? {})) xhr.setRequestHeader(k, v);
    }
    // The local back-end answers refusals in the user's language.
    if (sameOrigin(target.url)) xhr.setRequestHeader('Accept-Language', requestUi().getLocale());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) o.onProgress?.(Math.min(99, Math.floor((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new UploadError(refusal(xhr))));
    xhr.onerror = () => reject(new UploadError(requestUi().t('com_error_net')));
    xhr.onabort = () => reject(new RequestError('cancelled', 'cancelled'));
    o.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/**
 * The message to show for a failed upload (null for a cancelled one): a browser refusal
 * translated with its parameters, else the error's own message.
 */
export function uploadErrorMessage(e: unknown, t: (key: string, params?: Record<string, string>) => string): string | null {
  if (e instanceof RequestError && e.kind === 'cancelled') return null;
  if (e instanceof UploadError && e.problem) return t(e.problem.key, e.problem.params);
  return e instanceof Error && e.message ? e.message : t('upload.failed');
}

/**
 * Uploads one file of a kind: the rules checked in the browser, then sts/write, the direct
 * upload, and confirm (which checks size and content on the server). Resolves with the
 * confirmed object (its objectKey is what forms store); rejects with an UploadError whose
 * message is the spec's, or a RequestError of the API call.
 */
export async function uploadObject(file: File, kind: UploadKind, o: UploadOptions = {}): Promise<Uploaded> {
  const problem = checkUpload(kind, file, o.requiredName);
  if (problem) throw new UploadError(problem.key, problem);
  const grant = await getWriteGrant(kind, o.objectName ?? file.name, o.downloadFileName);
  o.onProgress?.(0);
  await sendToTarget(file, grant.upload, o);
  const done = await confirmUpload(grant.objectKey);
  o.onProgress?.(100);
  return done;
}

/** sts/read signs at most this many keys in one call (internal/storage/service.go). */
export const MAX_READ_KEYS = 100;

type Waiting = { key: string; resolve: (url: string) => void; reject: (e: unknown) => void };
let waiting: Waiting[] = [];
let flushTimer: ReturnType<typeof setTimeout> | undefined;

function askAlone(w: Waiting) {
  getObjectUrl(w.key).then((r) => w.resolve(r.url), w.reject);
}

async function readBatch(batch: Waiting[]) {
  const keys = [...new Set(batch.map((w) => w.key))];
  if (keys.length === 1) {
    batch.forEach(askAlone);
    return;
  }
  try {
    const g = await getReadGrant(keys);
    for (const w of batch) w.resolve(g.urls[w.key] ?? '');
  } catch {
    // One key the caller may not read fails the whole call: then each key is asked alone.
    batch.forEach(askAlone);
  }
}

function flushWaiting() {
  const all = waiting;
  waiting = [];
  flushTimer = undefined;
  for (let i = 0; i < all.length; i += MAX_READ_KEYS) void readBatch(all.slice(i, i + MAX_READ_KEYS));
}

/**
 * The signed URL of an objectKey. Keys asked for in the same tick (a table of thumbnails) share
 * one sts/read call; a single key uses oss/url.
 */
export function signedUrl(objectKey: string): Promise<string> {
  return new Promise((resolve, reject) => {
    waiting.push({ key: objectKey, resolve, reject });
    flushTimer ??= setTimeout(flushWaiting, 0);
  });
}

/**
 * The display URL of a stored image value: http(s) and data: URLs as they are; an objectKey
 * signed by the server (only keys containing a dot). The signed link is the key's read
 * credential: used again (a new image showing it, the window focused) 10 s or more after its
 * fetch it is fetched anew (STORAGE_REFRESH_MS, the spec's storage client refresh), and an image
 * left on screen gets a new one before its link expires.
 */
export function useObjectUrl(value: string | null | undefined): { url?: string; loading: boolean; failed: boolean } {
  const v = (value ?? '').trim();
  const kind = storedValueKind(v);
  const q = useQuery({
    queryKey: storageKeys.url(v),
    queryFn: () => signedUrl(v),
    enabled: kind === 'key',
    staleTime: STORAGE_REFRESH_MS,
    gcTime: LINK_REFRESH_MS,
    refetchInterval: LINK_REFRESH_MS,
    refetchOnWindowFocus: true,
    retry: false,
  });
  if (kind === 'direct') return { url: v, loading: false, failed: false };
  if (kind === 'none') return { url: undefined, loading: false, failed: false };
  return { url: q.data || undefined, loading: q.isPending, failed: q.isError };
}
