/**
 * The charge-point CA and the fleet's client certificates (docs/security-profiles.md, "The
 * charge-point CA"): shown on the device-access page. Types come from the generated OpenAPI types.
 */
import { get, post } from './request';
import type { ApiBody, ApiData } from './typings';

export type CAStatus = ApiData<'/api/auth/sys/dev/ca/detail', 'get'>;
export type CACertificate = CAStatus['ca'];
export type FleetCertificateInput = ApiBody<'/api/auth/sys/dev/certificate/fleet', 'post'>;
export type FleetCertificatePage = ApiData<'/api/auth/sys/dev/certificate/fleet', 'post'>;
export type FleetCertificate = FleetCertificatePage['list'][number];

const dev = '/api/auth/sys/dev';

export const caKeys = {
  detail: ['dev/ca/detail'] as const,
  fleet: ['dev/certificate/fleet'] as const,
};

export const getCA = () => get<CAStatus>(`${dev}/ca/detail`);
export const listFleetCertificates = (q: Record<string, unknown>) => post<FleetCertificatePage>(`${dev}/certificate/fleet`, q);
