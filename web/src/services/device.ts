/** Devices (docs/decisions.md#organisation): list, detail, changes, import/export of xlsx. */
import { get, post, RequestError } from './request';
import { download } from './download';
import type { Device, DeviceCountFilter, DevicePage } from './typings';

export type DeviceInput = Pick<Device, 'sn' | 'name' | 'modelId' | 'siteId' | 'softwareVersion' | 'installDate' | 'arrivalDate' | 'maintenanceCycle' | 'images'> & {
  id?: number;
};
/** Status codes 0-6 (docs/gateway.md#status-alarms-events). */
export const DEVICE_STATUSES = [0, 1, 2, 3, 4, 5, 6];
export const STATUS_COLORS: Record<number, string> = {
  0: 'default',
  1: 'success',
  2: 'processing',
  3: 'error',
  4: 'warning',
  5: 'processing',
  6: 'default',
};

// the keys are their own module so the status stream (on every screen) does not load the device calls
export { deviceKeys } from './deviceKeys';

const base = '/api/auth/sys/dev/basic';
export const listDevices = (q: Record<string, unknown>) => post<DevicePage>(`${base}/list`, q);
export const deviceStatusCounts = (f: DeviceCountFilter = {}) => get<Record<string, number>>(`${base}/status/count`, f);
export const getDevice = (id: number) => get<Device>(`${base}/detail`, { id });
export const addDevice = (d: DeviceInput) => post<{ id: number }>(`${base}/add`, d);
export const updateDevice = (d: DeviceInput) => post<null>(`${base}/update`, d);
export const deleteDevices = (ids: number[]) => post<null>(`${base}/delete`, { ids });
export const enableDevices = (ids: number[], enabled: boolean) => post<null>(`${base}/enable`, { ids, enabled });
export const maintainDevices = (ids: number[], on: boolean) => post<null>(`${base}/maintain`, { ids, on });
export const maintainedDevices = (ids: number[]) => post<null>(`${base}/maintained`, { ids });
/** Sets a device's security profile (0-3; docs/security-profiles.md). */
export const setSecurityProfile = (id: number, securityProfile: number) => post<null>(`${base}/security`, { id, securityProfile });
/** Sets the OCPP protocol a device's charger is admitted with: '' auto, 'ocpp1.6' or 'ocpp2.0.1' (docs/ocpp201.md). */
export const setDeviceProtocol = (id: number, protocol: string) => post<null>(`${base}/protocol`, { id, protocol });
/** Import answers its own errors (rows table): the call is silent. */
export const importDevices = (fileName: string, content: string) =>
  post<{ imported: number }>(`${base}/import`, { fileName, content }, { silent: true });
export const downloadTemplate = () => download(`${base}/import/template`, { fileName: 'device-import-template.xlsx' });
export const exportDevices = (filters: Record<string, unknown>) =>
  download(`${base}/export`, { method: 'POST', data: filters, fileName: 'devices.xlsx' });

export interface ImportRowError {
  row: number;
  message: string;
}

/** The rows of a failed import (`data.rows`), sorted by row; [] when the error names none. */
export function importErrorRows(e: unknown): ImportRowError[] {
  if (!(e instanceof RequestError)) return [];
  const rows = (e.data as { rows?: unknown } | null | undefined)?.rows;
  if (!Array.isArray(rows)) return [];
  return rows
    .filter((r): r is ImportRowError => !!r && typeof r === 'object' && typeof (r as ImportRowError).row === 'number')
    .map((r) => ({ row: r.row, message: String(r.message ?? '') }))
    .sort((a, b) => a.row - b.row);
}
