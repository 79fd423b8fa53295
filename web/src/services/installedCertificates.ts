/**
 * Certificates on the charger (docs/security-profiles.md, "Certificates on the charger"): the
 * roots a device holds as its last GetInstalledCertificateIds named them. Installing, reading
 * and deleting them are commands (control types 22-24) sent through control/send.
 */
import { get } from './request';
import type { ApiData } from './typings';

export type InstalledCertificate = ApiData<'/api/auth/sys/dev/certificate/installed', 'get'>[number];
export type CertificateHashData = InstalledCertificate['certificateHashData'];

/** Query keys beside their service. */
export const installedKeys = {
  list: (deviceId: number) => ['dev/certificate/installed', deviceId] as const,
};

/** The certificates a device holds, by type. */
export const listInstalledCertificates = (deviceId: number) => get<InstalledCertificate[]>('/api/auth/sys/dev/certificate/installed', { deviceId });
