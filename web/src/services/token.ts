/**
 * Tokens (idTags) of a customer, the unknown-token policy and the chargers' local lists
 * (docs/tokens.md). Types from the generated OpenAPI types.
 */
import { get, post } from './request';
import { download } from './download';
import type { ApiBody, ApiData } from './typings';

export type TokenListInput = ApiBody<'/api/auth/sys/token/list', 'post'>;
type RawTokenPage = ApiData<'/api/auth/sys/token/list', 'post'>;
export type Token = NonNullable<RawTokenPage['list'][number]>;
export type TokenPage = Omit<RawTokenPage, 'list'> & { list: Token[] };
export type TokenInput = ApiBody<'/api/auth/sys/token/add', 'post'>;
export type TokenPolicy = ApiData<'/api/auth/sys/token/policy', 'get'>;
export type LocalListState = ApiData<'/api/auth/sys/token/locallist/state', 'get'>;
export type ImportedTokens = ApiData<'/api/auth/sys/token/import', 'post'>;

/** Token status 0 active, 1 blocked; the list filter adds 2 expired. */
export const TOKEN_STATUSES = [0, 1, 2] as const;
export const STATUS_COLORS: Record<number, string> = { 0: 'success', 1: 'error', 2: 'warning' };
/** Origin 0 added, 1 imported, 2 recorded from an unknown token. */
export const ORIGINS = [0, 1, 2] as const;
/** Unknown-token policy: 0 accept and record, 1 refuse. */
export const POLICIES = [0, 1] as const;
export const MAX_ID_TAG = 20;

const base = '/api/auth/sys/token';

/** Query keys beside their service. */
export const tokenKeys = {
  list: ['token/list'] as const,
  policies: ['token/policy'] as const,
  policy: (customerId: number) => ['token/policy', customerId] as const,
  localList: (deviceId: number) => ['token/locallist/state', deviceId] as const,
};

export const listTokens = (q: Record<string, unknown>) => post<TokenPage>(`${base}/list`, q);
export const addToken = (t: TokenInput) => post<{ id: number }>(`${base}/add`, t);
export const updateToken = (t: TokenInput & { id: number }) => post<null>(`${base}/update`, t);
export const blockTokens = (ids: number[], blocked: boolean) => post<null>(`${base}/${blocked ? 'block' : 'unblock'}`, { ids });
export const deleteTokens = (ids: number[]) => post<null>(`${base}/delete`, { ids });
/** Import answers its own errors (rows table): the call is silent. */
export const importTokens = (customerId: number, fileName: string, content: string) =>
  post<ImportedTokens>(`${base}/import`, { customerId, fileName, content }, { silent: true });
export const downloadTokenTemplate = () => download(`${base}/import/template`, { fileName: 'token-import-template.xlsx' });
export const getPolicy = (customerId: number) => get<TokenPolicy>(`${base}/policy`, { customerId });
export const setPolicy = (customerId: number, unknown: number) => post<null>(`${base}/policy/update`, { customerId, unknown });
export const localListState = (deviceId: number) => get<LocalListState>(`${base}/locallist/state`, { deviceId });
export const sendLocalList = (deviceId: number, updateType: 'Full' | 'Differential') => post<unknown>(`${base}/locallist/send`, { deviceId, updateType });

export interface TokenRowError {
  row: number;
  field: string;
  message: string;
}
