/**
 * An application's webhooks (docs/webhooks.md): list, add/edit, delete and the delivery log, on
 * the application's detail page. Types from the generated OpenAPI types.
 */
import { post } from './request';
import type { ApiBody, ApiData } from './typings';

export type Webhook = ApiData<'/api/auth/sys/application/webhook/list', 'post'>[number];
export type WebhookSave = ApiBody<'/api/auth/sys/application/webhook/save', 'post'>;
export type DeliveryPage = ApiData<'/api/auth/sys/application/webhook/deliveries', 'post'>;
export type Delivery = DeliveryPage['list'][number];
export type DeliveryQuery = ApiBody<'/api/auth/sys/application/webhook/deliveries', 'post'>;

/** The event types an application may subscribe to. */
export const WEBHOOK_EVENTS = ['device.status', 'alarm', 'command.result', 'power.allocation'] as const;
/** At most this many webhooks per application. */
export const MAX_WEBHOOKS = 5;
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const webhookKeys = {
  lists: ['application/webhook/list'] as const,
  allDeliveries: ['application/webhook/deliveries'] as const,
  list: (appId: number) => ['application/webhook/list', appId] as const,
  deliveries: (appId: number, q: Omit<DeliveryQuery, 'appId'>) => ['application/webhook/deliveries', appId, q] as const,
};

const base = '/api/auth/sys/application/webhook';

export const listWebhooks = (appId: number) => post<Webhook[]>(`${base}/list`, { appId });
export const saveWebhook = (w: WebhookSave) => post<Webhook>(`${base}/save`, w);
export const deleteWebhooks = (appId: number, ids: number[]) => post<null>(`${base}/delete`, { appId, ids });
export const listDeliveries = (q: DeliveryQuery) => post<DeliveryPage>(`${base}/deliveries`, q);
