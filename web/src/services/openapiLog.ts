/**
 * The console's OpenAPI screens (issue 13; docs/openapi-console.md): the applications with their
 * recent calls, one application's request log and its access statistics (per day of the console's time zone).
 * Types from the generated OpenAPI types.
 */
import { post } from './request';
import type { ApiBody, ApiData } from './typings';

export type OpenapiAppPage = ApiData<'/api/auth/sys/openapi/app/list', 'post'>;
export type OpenapiApp = OpenapiAppPage['list'][number];
export type OpenapiAppQuery = ApiBody<'/api/auth/sys/openapi/app/list', 'post'>;
export type RequestPage = ApiData<'/api/auth/sys/openapi/log/list', 'post'>;
export type RequestRow = RequestPage['list'][number];
export type RequestQuery = ApiBody<'/api/auth/sys/openapi/log/list', 'post'>;
export type AccessStats = ApiData<'/api/auth/sys/openapi/log/stats', 'post'>;
export type EndpointStats = AccessStats['endpoints'][number];
export type DayStats = AccessStats['days'][number];

/** The request log's outcome filter: code 0, or any other code (refused or failed). */
export const OUTCOMES = ['ok', 'error'] as const;

export const openapiKeys = {
  apps: ['openapi/app/list'] as const,
  log: (id: number) => ['openapi/log/list', id] as const,
  logOf: (id: number, start: number, end: number) => ['openapi/log/list', id, start, end] as const,
  stats: (id: number, start: number, end: number) => ['openapi/log/stats', id, start, end] as const,
};

const base = '/api/auth/sys/openapi';

export const listOpenapiApps = (q: OpenapiAppQuery) => post<OpenapiAppPage>(`${base}/app/list`, q);
export const listRequests = (q: RequestQuery) => post<RequestPage>(`${base}/log/list`, q);
export const accessStats = (id: number, startTime: number, endTime: number) => post<AccessStats>(`${base}/log/stats`, { id, startTime, endTime });
