/**
 * Event types of interface.md "Events" (what webhooks subscribe to and deliveries carry) and the
 * delivery body of each (interface.md "Delivery envelope", decisions.md §6 for `media`).
 */
import { type Static, Type } from 'typebox';
import { DocumentFormatSchema } from './content.routes.js';
import { StringEnum, Timestamp } from './shapes.js';

export const EVENT_TYPES = [
  'content.created',
  'content.updated',
  'content.published',
  'content.unpublished',
  'content.deleted',
  'content.restored',
  'media.uploaded',
] as const;

/** One event type name. */
export type EventType = (typeof EVENT_TYPES)[number];

/** The `content.*` event types: their deliveries carry `document`. */
export const CONTENT_EVENT_TYPES = EVENT_TYPES.filter(
  (type): type is Exclude<EventType, 'media.uploaded'> => type !== 'media.uploaded',
);

/** Who made the change an event reports; `email` is empty for API keys. */
export const WebhookEventUserSchema = Type.Object({ id: Type.String(), email: Type.String() });
export type WebhookEventUser = Static<typeof WebhookEventUserSchema>;

const eventBase = {
  timestamp: Timestamp,
  project: Type.String(),
  environment: Type.String(),
  user: WebhookEventUserSchema,
};

/** A `content.*` delivery body: the document as it is after the change. */
export const ContentWebhookEventSchema = Type.Object({
  event: StringEnum(CONTENT_EVENT_TYPES),
  ...eventBase,
  document: Type.Object({
    documentId: Type.String(),
    translationGroupId: Type.String(),
    type: Type.String(),
    path: Type.String(),
    locale: Type.String(),
    format: DocumentFormatSchema,
    version: Type.Integer(),
  }),
});
export type ContentWebhookEvent = Static<typeof ContentWebhookEventSchema>;

/** A `media.uploaded` delivery body. */
export const MediaWebhookEventSchema = Type.Object({
  event: StringEnum(['media.uploaded']),
  ...eventBase,
  media: Type.Object({
    id: Type.String(),
    filename: Type.String(),
    mimeType: Type.String(),
    sizeBytes: Type.Integer(),
    url: Type.String(),
  }),
});
export type MediaWebhookEvent = Static<typeof MediaWebhookEventSchema>;

/** Any delivery body; narrow on `event`. */
export const WebhookEventSchema = Type.Union([ContentWebhookEventSchema, MediaWebhookEventSchema]);
export type WebhookEvent = Static<typeof WebhookEventSchema>;
