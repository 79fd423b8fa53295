/**
 * Logs (docs/logs.md): the error log and the xlsx exports of the error and action logs. Types
 * come from the contract (api.gen.d.ts). Exports are bounded by the server (50,000 rows) and
 * scoped exactly like the lists.
 */
import { post } from './request';
import { download } from './download';
import type { ApiBody, ApiData } from './typings';

export type ErrorLogPage = ApiData<'/api/auth/sys/logs/error/list', 'post'>;
export type ErrorLogQuery = ApiBody<'/api/auth/sys/logs/error/list', 'post'>;
export type ErrorLogRow = ErrorLogPage['list'][number];
export type ActionLogExportQuery = ApiBody<'/api/auth/sys/logs/action/export', 'post'>;

/** The only export format (spec: "Export allows only .xlsx"). */
export const EXPORT_FORMAT = 'xlsx';
/** Error types of the error log: 1 alarm, 2 fault. */
export const ERROR_KINDS = [1, 2];
export const ERROR_STATUSES = [0, 1];

export const errorLogKeys = { list: ['logs/error/list'] as const };

export const listErrorLogs = (q: ErrorLogQuery) => post<ErrorLogPage>('/api/auth/sys/logs/error/list', q);
export const exportErrorLogs = (q: ErrorLogQuery) =>
  download('/api/auth/sys/logs/error/export', { method: 'POST', data: { ...q, format: EXPORT_FORMAT }, fileName: 'error-log.xlsx' });
export const exportActionLogs = (q: ActionLogExportQuery) =>
  download('/api/auth/sys/logs/action/export', { method: 'POST', data: { ...q, format: EXPORT_FORMAT }, fileName: 'action-log.xlsx' });
