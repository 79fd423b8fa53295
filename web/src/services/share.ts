/**
 * The signed-out share page's calls (docs/attachments.md "Shares"): silent, the page shows the
 * server's messages (expired, wrong code, locked) itself.
 */
import { post } from './request';
import type { ApiData } from './typings';

export type ShareInfo = ApiData<'/api/unauth/share/info', 'post'>;
export type ShareLink = ApiData<'/api/unauth/share/download', 'post'>;

/** An expired share, or an unknown token (the server does not tell them apart). */
export const SHARE_EXPIRED_CODE = 10002;
/** Five wrong codes: locked until the owner resets the share. */
export const SHARE_LOCKED_CODE = 10003;

export const shareInfo = (token: string) => post<ShareInfo>('/api/unauth/share/info', { token }, { silent: true });
export const shareDownload = (token: string, code: string) => post<ShareLink>('/api/unauth/share/download', { token, code }, { silent: true });
