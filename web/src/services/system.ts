/** System dashboard (root only): locked accounts and the mail outbox. */
import { post } from './request';
import type { ActionLogPage, ActionLogQuery, LockedUserPage, OutboxPage } from './typings';

/** Query keys beside their service: roots to refresh, factories for one query. */
export const systemKeys = {
  /** The system dashboard (its figures come from services/stats.ts). */
  overview: ['system/overview'] as const,
  events: ['home/events', 'system'] as const,
  eventsOf: (limit: number) => ['home/events', 'system', limit] as const,
  locked: ['lock/list'] as const,
  lockedPage: (page: number, pageSize: number) => ['lock/list', page, pageSize] as const,
  outbox: (page: number, pageSize: number) => ['mail/outbox', page, pageSize] as const,
  actionLogs: (q: object) => ['logs/action', q] as const,
};

export const listLockedUsers = (page: number, pageSize: number) =>
  post<LockedUserPage>('/api/auth/sys/user/lock/list', { page, pageSize });
export const unlockUsers = (ids: number[]) => post<null>('/api/auth/sys/user/lock/unlock', { ids });
export const listOutbox = (page: number, pageSize: number) =>
  post<OutboxPage>('/api/auth/sys/mail/outbox/list', { page, pageSize });
export const listActionLogs = (q: ActionLogQuery) => post<ActionLogPage>('/api/auth/sys/logs/action/list', q);
