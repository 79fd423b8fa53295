/**
 * Charging sessions (docs/sessions.md): list (keyset pages: `next` continues), one session with
 * its timeline and signed values, the signed values' file, the xlsx export. Types come from the
 * contract (api.gen.d.ts); query keys live here.
 */
import { get, post } from './request';
import { download } from './download';
import type { ApiBody, ApiData } from './typings';
import type { PermissionKey } from '../access';

export type SessionQuery = ApiBody<'/api/auth/sys/session/list', 'post'>;
export type SessionPage = ApiData<'/api/auth/sys/session/list', 'post'>;
export type SessionRow = SessionPage['list'][number];
export type SessionDetail = ApiData<'/api/auth/sys/session/detail', 'get'>;
export type TimelinePoint = SessionDetail['timeline']['energy'][number];
export type SignedValue = SessionDetail['signed'][number];

/** Stop reasons a session may hold (app.stopReasons: OCPP 1.6's and 2.0.1's, and the core's Unterminated). */
export const STOP_REASONS = [
  'DeAuthorized',
  'EmergencyStop',
  'EnergyLimitReached',
  'EVDisconnected',
  'GroundFault',
  'HardReset',
  'ImmediateReset',
  'Local',
  'LocalOutOfCredit',
  'MasterPass',
  'Other',
  'OvercurrentFault',
  'PowerLoss',
  'PowerQuality',
  'Reboot',
  'Remote',
  'SOCLimitReached',
  'SoftReset',
  'StoppedByEV',
  'TimeLimitReached',
  'Timeout',
  'UnlockCommand',
  'Unterminated',
] as const;

/** RemoteStopTransaction (docs/decisions.md §6): control type 13 with params.transactionId. */
export const CTL_REMOTE_STOP = 13;
/** Who may send it (the remote start/stop key of the operator actions). */
export const REMOTE_STOP_KEY: PermissionKey = 'auth_device_remoteStart';

// not 'session': that is the signed-in session's key (models/session.ts)
export const sessionKeys = {
  all: ['charge-session'] as const,
  list: (q: object) => ['charge-session', 'list', q] as const,
  detail: (id: number) => ['charge-session', 'detail', id] as const,
};

export const listSessions = (q: SessionQuery) => post<SessionPage>('/api/auth/sys/session/list', q);
export const getSession = (id: number) => get<SessionDetail>('/api/auth/sys/session/detail', { id });
export const downloadSigned = (id: number) =>
  download('/api/auth/sys/session/signed/download', { params: { id }, fileName: `session-${id}-signed.json` });
export const exportSessions = (q: SessionQuery) =>
  download('/api/auth/sys/session/export', { method: 'POST', data: { ...q, format: 'xlsx' }, fileName: 'charging-sessions.xlsx' });
