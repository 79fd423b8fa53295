/**
 * Tickets ("issues" in the spec; docs/tickets.md): list with tabs, detail with its process,
 * add/update, comment, pending/close/reopen, anonymous shares and the signed-out share calls.
 * Types from the generated OpenAPI types.
 */
import { get, post } from './request';
import type { ApiBody, ApiData } from './typings';

export type TicketListInput = ApiBody<'/api/auth/sys/issue/list', 'post'>;
type RawTicketPage = ApiData<'/api/auth/sys/issue/list', 'post'>;
export type Ticket = ApiData<'/api/auth/sys/issue/detail', 'get'>;
export type TicketRow = NonNullable<RawTicketPage['list'][number]>;
/** A list answer (the server never sends null rows). */
export type TicketPage = Omit<RawTicketPage, 'list'> & { list: TicketRow[] };
export type TicketEntry = Ticket['entries'][number];
export type TicketInput = ApiBody<'/api/auth/sys/issue/add', 'post'>;
export type TicketShare = ApiData<'/api/auth/sys/issue/share/list', 'post'>[number];
export type MadeShare = ApiData<'/api/auth/sys/issue/share/add', 'post'>;
export type SharedTicket = ApiData<'/api/unauth/issue/share/detail', 'post'>;

/** Categories 1-5 and priorities 0 OA, 1 MA, 2 CA (docs/tickets.md). */
export const CATEGORIES = [1, 2, 3, 4, 5] as const;
export const DEVICE_INDEPENDENT = 4;
export const PRIORITIES = [0, 1, 2] as const;
export const STATES = ['open', 'pending', 'closed', 'reopen'] as const;
export type TicketState = (typeof STATES)[number];
export const TABS = ['open', 'closed', 'all'] as const;
export type TicketTab = (typeof TABS)[number];
export const STATE_COLORS: Record<string, string> = { open: 'blue', pending: 'gold', closed: 'default', reopen: 'purple' };
// As the alarm levels' tags (components/fleet.tsx LevelTag): OA gold, MA orange, CA red.
export const PRIORITY_COLORS: Record<number, string> = { 0: 'gold', 1: 'orange', 2: 'red' };
/** Share validity choices (days; 0 permanent). */
export const SHARE_DAYS = [1, 7, 30, 0] as const;
export const MAX_VISITOR_NAME = 50;

const base = '/api/auth/sys/issue';

/** Query keys beside their service. */
export const ticketKeys = {
  list: ['issue/list'] as const,
  details: ['issue/detail'] as const,
  allShares: ['issue/share/list'] as const,
  ofTab: (tab: string) => ['issue/list', tab] as const,
  ofDevice: (deviceId: number) => ['issue/list', 'device', deviceId] as const,
  detail: (id: number) => ['issue/detail', id] as const,
  shares: (id: number) => ['issue/share/list', id] as const,
};

export const listTickets = (q: TicketListInput) => post<TicketPage>(`${base}/list`, q);
export const getTicket = (id: number) => get<Ticket>(`${base}/detail`, { id });
export const addTicket = (t: TicketInput) => post<{ id: number }>(`${base}/add`, t);
export const updateTicket = (t: TicketInput & { id: number }) => post<null>(`${base}/update`, t);
export const commentTicket = (id: number, comment: string) => post<null>(`${base}/comment`, { id, comment });
export const pendingTicket = (id: number, comment = '') => post<null>(`${base}/pending`, { id, comment });
export const closeTicket = (id: number, comment: string) => post<null>(`${base}/close`, { id, comment });
export const reopenTicket = (id: number, comment: string) => post<null>(`${base}/reopen`, { id, comment });
export const addShare = (id: number, validity: { days?: number; expiresAt?: number }) => post<MadeShare>(`${base}/share/add`, { id, ...validity });
export const listShares = (id: number) => post<TicketShare[]>(`${base}/share/list`, { id });
export const revokeShare = (id: number) => post<null>(`${base}/share/revoke`, { id });

/** The error code of an unknown, revoked or expired share token. */
export const SHARE_GONE_CODE = 10002;
// The share page shows these calls' errors itself.
export const sharedTicket = (token: string) => post<SharedTicket>('/api/unauth/issue/share/detail', { token }, { silent: true });
export const commentShared = (token: string, name: string, comment: string) =>
  post<null>('/api/unauth/issue/share/comment', { token, name, comment }, { silent: true });
