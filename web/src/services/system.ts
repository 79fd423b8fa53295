/** System dashboard (root only): locked accounts and the mail outbox. */
import { post } from './request';
import type { ActionLogPage, ActionLogQuery, LockedUserPage, OutboxPage } from './typings';

export const listLockedUsers = (page: number, pageSize: number) =>
  post<LockedUserPage>('/api/auth/sys/user/lock/list', { page, pageSize });
export const unlockUsers = (ids: number[]) => post<null>('/api/auth/sys/user/lock/unlock', { ids });
export const listOutbox = (page: number, pageSize: number) =>
  post<OutboxPage>('/api/auth/sys/mail/outbox/list', { page, pageSize });
export const listActionLogs = (q: ActionLogQuery) => post<ActionLogPage>('/api/auth/sys/logs/action/list', q);
