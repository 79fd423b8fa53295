/**
 * The signed-out share page's calls (docs/attachments.md "Shares"): silent, the page shows the
 * server's messages (expired, wrong code, locked) itself. The download link is the signed-out
 * storage read credential (`/api/unauth/oss/sts/read`, docs/storage.md "Signed out"), held by a
 * storage client that refreshes it after 10 s.
 */
import { get, post } from './request';
import type { ApiData } from './typings';
import { createStorageClient, type StorageClient } from './storageClient';

export type ShareInfo = ApiData<'/api/unauth/share/info', 'post'>;
/** The signed-out read credential: accessKeyId, accessKeySecret, securityToken, expiration, and the link. */
export type ShareLink = ApiData<'/api/unauth/oss/sts/read', 'get'>;

/** An expired share, or an unknown token (the server does not tell them apart). */
export const SHARE_EXPIRED_CODE = 10002;
/** Five wrong codes: locked until the owner resets the share. */
export const SHARE_LOCKED_CODE = 10003;

export const shareInfo = (token: string) => post<ShareInfo>('/api/unauth/share/info', { token }, { silent: true });

/** The signed-out read credential of a share's file for its code. */
export const shareReadCredential = (token: string, code: string) => get<ShareLink>('/api/unauth/oss/sts/read', { token, code }, { silent: true });

let readClient: { token: string; code: string; client: StorageClient<ShareLink> } | undefined;

/** The download link of a share's file: the held credential of the same token and code while fresh. */
export function shareDownload(token: string, code: string): Promise<ShareLink> {
  if (!readClient || readClient.token !== token || readClient.code !== code) {
    readClient = { token, code, client: createStorageClient(() => shareReadCredential(token, code)) };
  }
  return readClient.client.credential();
}
