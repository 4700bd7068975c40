/** The webhooks page's calls, through the SDK's session client (`cms.webhooks`) like every Studio call. */
import type {
  Webhook,
  WebhookCreateBody,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookEventType,
  WebhookUpdateBody,
} from '@cms/sdk';
import { at, type Target, viaSdk } from '../../api/sdk.js';

export type { Webhook, WebhookDelivery, WebhookEventType };
export type DeliveryStatus = WebhookDelivery['status'];

/** The events a webhook can subscribe to (core `EVENT_TYPES`), with what each means. */
export const WEBHOOK_EVENTS: ReadonlyArray<{ name: WebhookEventType; description: string }> = [
  { name: 'content.created', description: 'a document is created' },
  { name: 'content.updated', description: 'a draft is saved' },
  { name: 'content.published', description: 'a document is published' },
  { name: 'content.unpublished', description: 'a document is unpublished' },
  { name: 'content.deleted', description: 'a document is deleted' },
  { name: 'content.restored', description: 'a deleted document is restored' },
  { name: 'media.uploaded', description: 'a file is uploaded to the media library' },
];

/** Delivery log page size (core `DELIVERIES_PAGE_DEFAULT`). */
export const DELIVERIES_PAGE_SIZE = 20;

/** One attempt of a delivery (round, attempt, outcome, the start of the receiver's answer). */
export type DeliveryAttempt = WebhookDeliveryDetail['attemptLog'][number];

export const webhooks = {
  list: (target: Target) => viaSdk(() => at(target).webhooks.list()),
  create: (target: Target, body: WebhookCreateBody) => viaSdk(() => at(target).webhooks.create(body)),
  update: (target: Target, id: string, body: WebhookUpdateBody) => viaSdk(() => at(target).webhooks.update(id, body)),
  remove: (target: Target, id: string) => viaSdk(() => at(target).webhooks.delete(id)),
  deliveries: (target: Target, id: string, query: { limit: number; offset: number; status?: DeliveryStatus }) =>
    viaSdk(() => at(target).webhooks.deliveries(id, query)),
  delivery: (target: Target, id: string, deliveryId: string) =>
    viaSdk(() => at(target).webhooks.delivery(id, deliveryId)),
  redeliver: (target: Target, id: string, deliveryId: string) =>
    viaSdk(() => at(target).webhooks.redeliver(id, deliveryId)),
  redeliverFailed: (target: Target, id: string, since: string) =>
    viaSdk(() => at(target).webhooks.redeliverFailed(id, since)),
};
