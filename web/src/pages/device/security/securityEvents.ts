/**
 * The logic of a device's Security events card (docs/security-profiles.md, "Security events"):
 * the OCPP 1.6 security whitepaper's event types with the ones it marks critical (the same table
 * as the server's, internal/gateway/ocpp16/security_event_types.go), a type's label key, the
 * list body from the card's filters, and whether a row can be acknowledged.
 */
import type { SecurityEvent, SecurityEventQuery } from '../../../services/securityEvents';

/** The whitepaper's security event types, in its order, and whether each is critical. */
export const SECURITY_EVENT_TYPES: readonly { type: string; critical: boolean }[] = [
  { type: 'FirmwareUpdated', critical: true },
  { type: 'FailedToAuthenticateAtCentralSystem', critical: false },
  { type: 'CentralSystemFailedToAuthenticate', critical: false },
  { type: 'SettingSystemTime', critical: true },
  { type: 'StartupOfTheDevice', critical: true },
  { type: 'ResetOrReboot', critical: true },
  { type: 'SecurityLogWasCleared', critical: true },
  { type: 'ReconfigurationOfSecurityParameters', critical: false },
  { type: 'MemoryExhaustion', critical: true },
  { type: 'InvalidMessages', critical: false },
  { type: 'AttemptedReplayAttacks', critical: false },
  { type: 'TamperDetectionActivated', critical: true },
  { type: 'InvalidFirmwareSignature', critical: false },
  { type: 'InvalidFirmwareSigningCertificate', critical: false },
  { type: 'InvalidCentralSystemCertificate', critical: false },
  { type: 'InvalidChargePointCertificate', critical: false },
  { type: 'InvalidTLSVersion', critical: false },
  { type: 'InvalidTLSCipherSuite', critical: false },
];

const KNOWN = new Set(SECURITY_EVENT_TYPES.map((x) => x.type));

/** The text key of a type's readable name; null for a type the whitepaper does not list (a vendor's own: shown as sent). */
export function typeLabelKey(type: string): string | null {
  return KNOWN.has(type) ? `secEvent.type.${type}` : null;
}

/** A type as shown: its readable name when known, else the type itself. */
export function typeLabel(type: string, t: (key: string) => string): string {
  const key = typeLabelKey(type);
  return key ? t(key) : type || '-';
}

/** The card's filters: `type`, `critical` (1: critical only) and the charger-time range. */
export interface SecurityEventFilters {
  type?: unknown;
  critical?: unknown;
  startTime?: unknown;
  endTime?: unknown;
  page?: unknown;
  pageSize?: unknown;
}

/** The list body of a device's card from its filters (an export drops the paging). */
export function securityEventBody(deviceId: number, q: SecurityEventFilters, paging = true): SecurityEventQuery {
  const body: SecurityEventQuery = { deviceId };
  if (typeof q.type === 'string' && q.type.trim()) body.type = q.type.trim();
  if (q.critical === 1) body.critical = true;
  if (typeof q.startTime === 'number') body.startTime = q.startTime;
  if (typeof q.endTime === 'number') body.endTime = q.endTime;
  if (paging) {
    if (typeof q.page === 'number') body.page = q.page;
    if (typeof q.pageSize === 'number') body.pageSize = q.pageSize;
  }
  return body;
}

/** Alarm state of a row: 'open' (acknowledging ends it), 'ended', or 'none' (no alarm: not critical). */
export function alarmState(e: Pick<SecurityEvent, 'alarmId' | 'alarmOpen'> & { commandId?: number }): 'open' | 'ended' | 'explained' | 'none' {
  if (e.alarmOpen) return 'open';
  if (e.alarmId) return 'ended';
  return e.commandId ? 'explained' : 'none';
}

/** Whether a user holding auth_device_edit (`canEdit`) may acknowledge the row: its alarm is open. */
export function canAcknowledge(e: Pick<SecurityEvent, 'alarmId' | 'alarmOpen'>, canEdit: boolean): boolean {
  return canEdit && alarmState(e) === 'open';
}
