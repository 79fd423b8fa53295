/**
 * The operator actions of a device (control types 12-18: remote start and stop, unlock, clear
 * cache, DataTransfer, reserve and cancel; docs/gateway.md, "Commands") and its reservations
 * ("Reservations"). The actions go through control/send like every operation (hooks/useCommands);
 * this module reads what the device page shows beside them.
 */
import { get, type RequestOptions } from './request';
import { CTL, sendControl } from './fleet';
import type { ApiData } from './typings';
import type { PermissionKey } from '../access';
import { isPastOrWithin30Min } from '../utils/time';

export type ConnectorOps = ApiData<'/api/auth/sys/dev/ops/connectors', 'get'>[number];
export type ReservationPage = ApiData<'/api/auth/sys/dev/reservation/list', 'get'>;
export type Reservation = ReservationPage['list'][number];

/** The permission key each action needs besides auth_device_edit (api/permissions.json). */
export const OPS_KEYS = {
  remoteStart: 'auth_device_remoteStart',
  unlock: 'auth_device_unlock',
  reserve: 'auth_device_reserve',
} as const satisfies Record<string, PermissionKey>;

/** Reservation states (fleet/reservation.go). */
export const RESERVATION_COLORS: Record<string, string> = {
  requested: 'processing',
  active: 'success',
  used: 'blue',
  cancelled: 'default',
  expired: 'warning',
  refused: 'error',
};

/** The bounds the server checks (internal/fleet/operations.go). */
export const OPS_LIMITS = { idTag: 20, vendorId: 255, messageId: 50, data: 8192, reserveDays: 7 } as const;

/**
 * A reservation's expiry: within the server's 7 days and past the time check (more than 30
 * minutes ahead: a reservation that ends sooner is gone before a driver can use it;
 * docs/decisions.md#time-check). `null` when valid, else the i18n key of the reason.
 */
export function reserveExpiryError(expiry: number | null | undefined, now: number = Date.now()): 'ops.expiryRule' | 'ops.expirySoon' | null {
  if (expiry === null || expiry === undefined || expiry >= now + OPS_LIMITS.reserveDays * 86_400_000) return 'ops.expiryRule';
  if (isPastOrWithin30Min(expiry, now)) return 'ops.expirySoon';
  return null;
}

export const opsKeys = {
  reservationPage: (deviceId: number, page: number) => ['dev/reservation/list', deviceId, page] as const,
  connectors: (deviceId: number) => ['dev/ops/connectors', deviceId] as const,
  reservations: (deviceId: number) => ['dev/reservation/list', deviceId] as const,
};

const dev = '/api/auth/sys/dev';

export const getConnectorOps = (deviceId: number) => get<ConnectorOps[]>(`${dev}/ops/connectors`, { deviceId });
export const listReservations = (deviceId: number, page = 1, pageSize = 20) =>
  get<ReservationPage>(`${dev}/reservation/list`, { deviceId, page, pageSize });

/**
 * Stops a charging session remotely (control type 13 with the session's id): for the sessions
 * list, which follows the command like every other (getCommand until the result is not 1).
 */
export const remoteStop = (deviceId: number, transactionId: number, o?: RequestOptions) =>
  sendControl({ deviceIds: [deviceId], controlType: CTL.remoteStop, params: { transactionId } }, o);

/** An idTag the server takes: 1-20 printable ASCII characters. */
export function validIdTag(s: string | undefined): boolean {
  return !!s && s.length <= OPS_LIMITS.idTag && /^[\x20-\x7e]+$/.test(s);
}
