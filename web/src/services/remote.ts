/**
 * Remote access (issue 14; docs/remote-access.md): a device's remote link (VPN), the charger's
 * own web page through it, the SSH terminal's WebSocket and the audited session list.
 * Types from the generated OpenAPI types.
 */
import { get, post, type RequestOptions } from './request';
import type { ApiBody, ApiData } from './typings';

export type LinkView = ApiData<'/api/auth/sys/dev/link/open', 'post'>;
/** `link` is the device's newest link whatever its status, null when it never had one. */
export type LinkStatus = Omit<ApiData<'/api/auth/sys/dev/link/status', 'get'>, 'link'> & { link: LinkView | null };
export type LinkKind = 'web' | 'ssh';
export type OpenLinkInput = ApiBody<'/api/auth/sys/dev/link/open', 'post'>;
export type SessionListInput = ApiBody<'/api/auth/sys/dev/link/session/list', 'post'>;
export type SessionPage = ApiData<'/api/auth/sys/dev/link/session/list', 'post'>;
export type RemoteSession = SessionPage['list'][number];

/** LinkView.status: 1 opening, 2 open, 3 closed. */
export const LINK_STATUS = { opening: 1, open: 2, closed: 3 } as const;

/** Validity of a link in minutes (the server's bounds and default). */
export const LINK_MINUTES = { min: 5, max: 240, default: 30 } as const;

/** The SSH port the terminal dialog offers first. */
export const SSH_PORT = 22;

export const remoteKeys = {
  status: (deviceId: number) => ['dev/link/status', deviceId] as const,
  sessions: (deviceId: number) => ['dev/link/session/list', deviceId] as const,
};

const dev = '/api/auth/sys/dev';

// The panel shows every failure itself (inline and as a toast), so its calls are silent.
const quiet: RequestOptions = { silent: true };

export const getLinkStatus = (deviceId: number) => get<LinkStatus>(`${dev}/link/status`, { deviceId });
export const openLink = (body: OpenLinkInput & { kind: LinkKind }) => post<LinkView>(`${dev}/link/open`, body, quiet);
export const closeLink = (deviceId: number) => post<null>(`${dev}/link/close`, { deviceId }, quiet);
/** Destroys the link and opens it again with the same kind (a call whose messages the request layer never toasts: request.ts). */
export const restartLink = (deviceId: number) => post<LinkView>(`${dev}/basic/vpn/restart`, { deviceId }, quiet);
/** A URL under this origin (its token ends 15 minutes after its last use) serving the charger's own web page through the link. */
export const linkWebUrl = (deviceId: number) => post<{ url: string }>(`${dev}/link/web`, { deviceId }, quiet);
export const listLinkSessions = (q: SessionListInput) => post<SessionPage>(`${dev}/link/session/list`, q);

/** The terminal's WebSocket URL on this origin (the session cookie authenticates it). */
export function terminalUrl(deviceId: number, loc: { protocol: string; host: string } = window.location): string {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}${dev}/link/terminal?deviceId=${encodeURIComponent(String(deviceId))}`;
}
