/**
 * Messages (issue 11; docs/messages.md): the caller's console messages, the unread count (pushed
 * on MESSAGE_STREAM_URL, else polled) and the reception setting. Types from the generated
 * OpenAPI types.
 */
import { get, post } from './request';
import type { ApiBody, ApiData } from './typings';

export type MessageListInput = ApiBody<'/api/auth/sys/message/list', 'post'>;
export type MessagePage = ApiData<'/api/auth/sys/message/list', 'post'>;
export type Message = MessagePage['list'][number];
export type MessageSetting = ApiData<'/api/auth/sys/message/setting', 'get'>;
export type UnreadCount = ApiData<'/api/auth/sys/message/unread', 'get'>;

/** Email frequencies of docs/messages.md#no-floods. */
export const FREQUENCIES = ['immediate', 'delayed'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
/** The delayed digest's window, minutes (server: 5-1440). */
export const DELAY_MIN = 5;
export const DELAY_MAX = 1440;

const base = '/api/auth/sys/message';
/** Query keys beside their service: roots to refresh, factories for one query. */
export const messageKeys = {
  list: ['message/list'] as const,
  setting: ['message/setting'] as const,
};
export const MESSAGE_STREAM_URL = `${base}/stream`;

export const listMessages = (q: MessageListInput) => post<MessagePage>(`${base}/list`, q);
/** The unread count; silent: the badge's polling must not toast every 15 s while offline. */
export const unreadCount = () => get<UnreadCount>(`${base}/unread`, undefined, { silent: true });
/** Marks messages read; no ids: all of the caller's. */
export const readMessages = (ids: number[]) => post<null>(`${base}/read`, { ids });
/** Marks messages processed (and read). */
export const processMessages = (ids: number[]) => post<null>(`${base}/process`, { ids });
export const getMessageSetting = () => get<MessageSetting>(`${base}/setting`);
export const saveMessageSetting = (s: MessageSetting) => post<null>(`${base}/setting/save`, s);
