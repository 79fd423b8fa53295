/**
 * Security events of chargers (docs/security-profiles.md, "Security events"): the
 * SecurityEventNotifications a device sent, listed and exported with the same filter, and the
 * acknowledgement that ends the alarms critical ones opened. Types come from the contract
 * (api.gen.d.ts); the export is bounded by the server (50,000 rows).
 */
import { post } from './request';
import { download } from './download';
import type { ApiBody, ApiData } from './typings';

export type SecurityEventQuery = ApiBody<'/api/auth/sys/dev/security/event/list', 'post'>;
export type SecurityEventPage = ApiData<'/api/auth/sys/dev/security/event/list', 'post'>;
export type SecurityEvent = SecurityEventPage['list'][number];
export type SecurityAckAnswer = ApiData<'/api/auth/sys/dev/security/event/ack', 'post'>;

const base = '/api/auth/sys/dev/security/event';

/** Query keys beside their service. */
export const securityEventKeys = {
  list: (deviceId: number) => ['dev/security/event/list', deviceId] as const,
};

export const listSecurityEvents = (q: SecurityEventQuery) => post<SecurityEventPage>(`${base}/list`, q);
export const exportSecurityEvents = (q: SecurityEventQuery) =>
  download(`${base}/export`, { method: 'POST', data: { ...q, format: 'xlsx' }, fileName: 'security-events.xlsx' });
/** Ends the alarms the events opened (auth_device_edit). */
export const ackSecurityEvents = (ids: number[]) => post<SecurityAckAnswer>(`${base}/ack`, { ids });
