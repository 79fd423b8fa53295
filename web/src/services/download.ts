/**
 * File downloads (xlsx template, export): the answer is a file, not an envelope. Sends the same
 * headers as request() (CSRF on state-changing methods, Accept-Language); an answer that is a
 * JSON envelope is an error and becomes the usual toast (20013 only logged, session codes go
 * through request()'s handling by re-reading the session).
 */
import { buildUrl, CSRF_COOKIE, CSRF_HEADER, NO_PERMISSION_CODE, handleSessionExpired, readCookie, RequestError, requestUi, SESSION_EXPIRED_CODES } from './request';

export interface DownloadOptions {
  method?: 'GET' | 'POST';
  data?: unknown;
  params?: Record<string, unknown>;
  /** File name when the answer names none. */
  fileName?: string;
}

/** The file name of a Content-Disposition header. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star) return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain ? plain[1] : fallback;
}

/** Fetches a file as a Blob; rejects with a RequestError (toasted) when the server answers an envelope. */
export async function fetchFile(url: string, o: DownloadOptions = {}): Promise<{ blob: Blob; fileName: string }> {
  const ui = requestUi();
  const method = o.method ?? 'GET';
  const headers: Record<string, string> = { 'Accept-Language': ui.getLocale() };
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    const csrf = readCookie(CSRF_COOKIE);
    if (csrf) headers[CSRF_HEADER] = csrf;
  }
  let res: Response;
  try {
    res = await fetch(buildUrl(url, o.params), {
      method,
      headers,
      credentials: 'include',
      body: method === 'GET' ? undefined : JSON.stringify(o.data ?? {}),
    });
  } catch {
    const e = new RequestError('network', ui.t('com_error_net'));
    ui.notifyError(e.message);
    throw e;
  }
  const type = res.headers.get('Content-Type') ?? '';
  if (res.status !== 200 || type.includes('application/json')) {
    let env: { code?: number; message?: string; data?: unknown } = {};
    try {
      env = (await res.json()) as typeof env;
    } catch {
      /* not JSON */
    }
    const msg = env.message || (res.status === 404 ? ui.t('com_api_error_404') : ui.t('com_error_system'));
    const code = typeof env.code === 'number' ? env.code : undefined;
    const e = new RequestError(res.status !== 200 ? 'http' : 'business', msg, { code, status: res.status, data: env.data });
    if (code !== undefined && SESSION_EXPIRED_CODES.includes(code)) {
      handleSessionExpired(url);
    } else if (code === NO_PERMISSION_CODE) console.warn(`[${code}] ${method} ${url}: ${msg}`);
    else ui.notifyError(msg);
    throw e;
  }
  return { blob: await res.blob(), fileName: fileNameOf(res.headers.get('Content-Disposition'), o.fileName ?? 'download') };
}

/** Fetches a file and saves it through a temporary link. */
export async function download(url: string, o: DownloadOptions = {}): Promise<void> {
  const { blob, fileName } = await fetchFile(url, o);
  saveBlob(blob, fileName);
}

/** Saves bytes the console already holds (e.g. a certificate's PEM) as a file, through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // A busy browser may start reading the blob seconds after the click: revoking it sooner loses
  // the download (seen on a loaded CI machine), so the URL lives for a minute.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/** A File → base64 (without the data: prefix), for JSON uploads such as the device import. */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => {
      const s = String(r.result);
      resolve(s.slice(s.indexOf(',') + 1));
    };
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });
}
