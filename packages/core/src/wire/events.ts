/** Event types of interface.md "Events": what webhooks subscribe to and deliveries carry. */
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
