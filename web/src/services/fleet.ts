/**
 * Live fleet (issue 4; docs/gateway.md): remote operations, runtime data, alarms and events,
 * series, configuration values, files, blacklist, pending devices, refusals, protocol logs.
 * Request and answer types come from the generated OpenAPI types.
 */
import { get, post, type RequestOptions } from './request';
import type { ApiBody, ApiData } from './typings';

export type SendInput = ApiBody<'/api/auth/sys/dev/control/send', 'post'>;
export type SendResult = ApiData<'/api/auth/sys/dev/control/send', 'post'>;
export type SentCommand = SendResult['commands'][number];
export type ControlParams = NonNullable<SendInput['params']>;
export type Command = ApiData<'/api/auth/sys/dev/control/detail', 'get'>;
export type CommandListInput = ApiBody<'/api/auth/sys/dev/control/list', 'post'>;
export type CommandPage = ApiData<'/api/auth/sys/dev/control/list', 'post'>;
export type Runtime = ApiData<'/api/auth/sys/dev/runtime/detail', 'get'>;
export type Connector = Runtime['connectors'][number];
export type RuntimeValue = Runtime['values'][number];
export type EventListInput = ApiBody<'/api/auth/sys/dev/alarm/list', 'post'>;
export type EventPage = ApiData<'/api/auth/sys/dev/alarm/list', 'post'>;
export type DeviceEvent = EventPage['list'][number];
export type SeriesInput = ApiBody<'/api/auth/sys/dev/data/series', 'post'>;
export type Series = ApiData<'/api/auth/sys/dev/data/series', 'post'>[number];
export type ConfigValue = ApiData<'/api/auth/sys/dev/config/values', 'get'>[number];
export type DeviceCertificate = ApiData<'/api/auth/sys/dev/certificate/list', 'get'>[number];
export type FileListInput = ApiBody<'/api/auth/sys/dev/diagnostics/list', 'post'>;
export type FilePage = ApiData<'/api/auth/sys/dev/diagnostics/list', 'post'>;
export type FleetFile = FilePage['list'][number];
export type FirmwareAdd = ApiData<'/api/auth/sys/dev/firmware/add', 'post'>;
export type BlacklistInput = ApiBody<'/api/auth/sys/dev/blacklist/add', 'post'>;
export type BlacklistPage = ApiData<'/api/auth/sys/dev/blacklist/list', 'post'>;
export type BlacklistEntry = BlacklistPage['list'][number];
export type PendingPage = ApiData<'/api/auth/sys/dev/pending/list', 'post'>;
export type PendingDevice = PendingPage['list'][number];
export type RefusalPage = ApiData<'/api/auth/sys/dev/refusal/list', 'post'>;
export type Refusal = RefusalPage['list'][number];
export type ProtocolLogInput = ApiBody<'/api/auth/sys/logs/protocol/list', 'post'>;
export type ProtocolLogPage = ApiData<'/api/auth/sys/logs/protocol/list', 'post'>;
export type ProtocolLog = ProtocolLogPage['list'][number];
export type StatusEvent = ApiData<'/api/auth/sys/dev/events/stream', 'get'>;

/** Control types of docs/ocpp16.md#chargeops--charger (docs/gateway.md). */
export const CTL = {
  softReset: 1,
  hardReset: 2,
  availability: 3,
  connectorAvailability: 4,
  updateFirmware: 5,
  getDiagnostics: 6,
  vpnStart: 7,
  vpnStop: 8,
  getConfiguration: 9,
  triggerMessage: 10,
  changeConfiguration: 11,
  remoteStart: 12,
  remoteStop: 13,
  unlockConnector: 14,
  clearCache: 15,
  dataTransfer: 16,
  reserveNow: 17,
  cancelReservation: 18,
  sendLocalList: 19,
  getLocalListVersion: 20,
  renewCertificate: 21,
  installCertificate: 22,
  getCertificateIds: 23,
  deleteCertificate: 24,
  getLog: 25,
  // 26-28 are smart charging's (pages/device/power/profile.ts SC_CTL)
  /** Storage power setpoint: params.powerW (+ discharge, - charge); the unit switches to manual mode (issue 26). */
  storagePower: 29,
  /** Storage operating mode: params.mode (services/ess.ts ESS_MODES). */
  storageMode: 30,
  /** Storage start (params.enable true) or stop (false). */
  storageRun: 31,
  /** Storage fault reset: clears latched faults. */
  storageFaultReset: 32,
} as const;

/** The storage commands 29-32: they need auth_device_storage besides control/send's key. */
export const STORAGE_CONTROL_TYPES = [CTL.storagePower, CTL.storageMode, CTL.storageRun, CTL.storageFaultReset] as const;

/** params.logType of a GetLog (control type 25); the security log needs auth_device_certificate. */
export const LOG_TYPES_GETLOG = ['DiagnosticsLog', 'SecurityLog'] as const;
export type GetLogType = (typeof LOG_TYPES_GETLOG)[number];

/** Command results: 1 waiting, 2 success, 3 failed, 4 timeout, 5 offline. */
export const RESULT = { waiting: 1, success: 2, failed: 3, timeout: 4, offline: 5 } as const;
export const RESULT_COLORS: Record<number, string> = { 1: 'processing', 2: 'success', 3: 'error', 4: 'warning', 5: 'default' };

/** Device operation codes (docs/api.md). */
export const DEVICE_CODES = { offline: 30001, busy: 30002, someBusy: 30003, timeout: 30004, sameValue: 30005, notSupported: 30006, disabled: 30007 } as const;

/** Event kinds (0 offline, 1 alarm, 2 fault, 3 unavailable) and levels (0 OA, 1 MA, 2 CA). */
export const EVENT_KINDS = [0, 1, 2, 3];
export const ALARM_KINDS = [1, 2];
export const EVENT_LEVELS = [0, 1, 2];

/** Protocol-log communication types: 0 open, 1 close, 2 received, 3 sent. */
export const LOG_TYPES = [0, 1, 2, 3];

export const TRIGGER_MESSAGES = ['MeterValues', 'StatusNotification', 'Heartbeat', 'BootNotification', 'FirmwareStatusNotification', 'DiagnosticsStatusNotification', 'LogStatusNotification'];

const dev = '/api/auth/sys/dev';

/** Query keys beside their service: roots to refresh, factories for one query. */
export const fleetKeys = {
  runtime: (deviceId: number) => ['dev/runtime', deviceId] as const,
  /** A device's, a site's or every event list (components/fleet.tsx adds its filters). */
  /** A device's event lists (every filter of them). */
  events: (deviceId: number) => ['dev/alarm/list', deviceId] as const,
  /** An event list: a device's (its id), a site's or every event ('site-<id>', 'all'), with the list's fixed filters. */
  eventList: (scope: number | string, filters: readonly string[]) => ['dev/alarm/list', scope, ...filters] as const,
  commands: (deviceId: number) => ['dev/control/list', deviceId] as const,
  configValues: (deviceId: number) => ['dev/config/values', deviceId] as const,
  certificates: (deviceId: number) => ['dev/certificate/list', deviceId] as const,
  firmware: ['dev/firmware/list'] as const,
  diagnostics: (deviceId: number) => ['dev/diagnostics/list', deviceId] as const,
  seriesProbe: (deviceId: number, defaults: unknown) => ['dev/data/series/probe', deviceId, defaults] as const,
  series: (deviceId: number, q: unknown, range: unknown) => ['dev/data/series', deviceId, q, range] as const,
  blacklist: ['dev/blacklist/list'] as const,
  pending: ['dev/pending/list'] as const,
  refusals: ['dev/refusal/list'] as const,
  protocolLogs: (sn: string) => ['logs/protocol/list', sn] as const,
};

export const sendControl = (body: SendInput, o?: RequestOptions) => post<SendResult>(`${dev}/control/send`, body, o);
export const getCommand = (id: number) => get<Command>(`${dev}/control/detail`, { id });
export const listCommands = (q: CommandListInput) => post<CommandPage>(`${dev}/control/list`, q);
export const getRuntime = (id: number) => get<Runtime>(`${dev}/runtime/detail`, { id });
export const listEvents = (q: EventListInput) => post<EventPage>(`${dev}/alarm/list`, q);
export const getSeries = (q: SeriesInput) => post<Series[]>(`${dev}/data/series`, q);
export const getConfigValues = (deviceId: number) => get<ConfigValue[]>(`${dev}/config/values`, { deviceId });
/** Client certificates the charge-point CA signed for a device, newest first. */
export const listCertificates = (deviceId: number) => get<DeviceCertificate[]>(`${dev}/certificate/list`, { deviceId });
/** Reads a parameter file (JSON, base64) into the device's items to set; changes nothing. */
export const importParams = (deviceId: number, fileName: string, content: string) =>
  post<ConfigValue[]>(`${dev}/config/import`, { deviceId, fileName, content });
/** Registers a firmware file; with `signing` (both fields) control type 5 sends SignedUpdateFirmware. */
export const addFirmware = (name: string, signing?: { signingCertificate: string; signature: string }) =>
  post<FirmwareAdd>(`${dev}/firmware/add`, { name, ...signing });
export const listFirmware = (q: FileListInput) => post<FilePage>(`${dev}/firmware/list`, q);
export const listDiagnostics = (q: FileListInput) => post<FilePage>(`${dev}/diagnostics/list`, q);
export const fileUrl = (id: number) => get<{ url: string }>(`${dev}/file/url`, { id });
export const addBlacklist = (b: BlacklistInput) => post<{ id: number }>(`${dev}/blacklist/add`, b);
export const listBlacklist = (q: Record<string, unknown>) => post<BlacklistPage>(`${dev}/blacklist/list`, q);
export const deleteBlacklist = (ids: number[]) => post<null>(`${dev}/blacklist/delete`, { ids });
export const listPending = (q: Record<string, unknown>) => post<PendingPage>(`${dev}/pending/list`, q);
export const listRefusals = (q: Record<string, unknown>) => post<RefusalPage>(`${dev}/refusal/list`, q);
export const listProtocolLogs = (q: ProtocolLogInput) => post<ProtocolLogPage>('/api/auth/sys/logs/protocol/list', q);

export const STATUS_STREAM_URL = `${dev}/events/stream`;

/**
 * PUTs a file's bytes to the signed upload URL of firmware/add, reporting progress 0-100.
 * XMLHttpRequest because fetch has no upload progress.
 */
export function uploadBytes(url: string, file: Blob, onProgress: (percent: number) => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve();
      } else reject(new Error(`HTTP ${xhr.status}`));
    };
    xhr.onerror = () => reject(new Error('network'));
    xhr.onabort = () => reject(new Error('aborted'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(file);
  });
}
