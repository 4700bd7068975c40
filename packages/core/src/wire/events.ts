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
  'release.published',
  'release.failed',
] as const;

/** One event type name. */
export type EventType = (typeof EVENT_TYPES)[number];

/** The `content.*` event types: their deliveries carry `document`. */
export const CONTENT_EVENT_TYPES = EVENT_TYPES.filter((type): type is Extract<EventType, `content.${string}`> =>
  type.startsWith('content.'),
);

/** The `release.*` event types: their deliveries carry `release`. */
export const RELEASE_EVENT_TYPES = EVENT_TYPES.filter((type): type is Extract<EventType, `release.${string}`> =>
  type.startsWith('release.'),
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
  /**
   * The change feed's cursor of this change (`GET /api/v1/changes`, docs/api.md "Change feed"): the
   * feed lists the change at or before it, and `since=<cursor>` lists what came after. Set when the
   * event is queued for delivery; absent only on deliveries queued before the feed existed.
   */
  cursor: Type.Optional(Type.String()),
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

/**
 * A `release.published` / `release.failed` delivery body, sent after the per-document events of the
 * same transaction; `failures` lists why items kept a failed release from publishing.
 */
export const ReleaseWebhookEventSchema = Type.Object({
  event: StringEnum(RELEASE_EVENT_TYPES),
  ...eventBase,
  release: Type.Object({
    id: Type.String(),
    title: Type.String(),
    status: Type.String(),
    itemCount: Type.Integer(),
    scheduledAt: Type.Union([Timestamp, Type.Null()]),
    publishedAt: Type.Union([Timestamp, Type.Null()]),
    revertOf: Type.Union([Type.String(), Type.Null()]),
    failures: Type.Array(Type.Object({ documentId: Type.String(), error: Type.String() })),
  }),
});
export type ReleaseWebhookEvent = Static<typeof ReleaseWebhookEventSchema>;

/** Any delivery body; narrow on `event`. */
export const WebhookEventSchema = Type.Union([
  ContentWebhookEventSchema,
  MediaWebhookEventSchema,
  ReleaseWebhookEventSchema,
]);
export type WebhookEvent = Static<typeof WebhookEventSchema>;
