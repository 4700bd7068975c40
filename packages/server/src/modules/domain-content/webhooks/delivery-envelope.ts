/**
 * The delivery body: the outbox payload serialized once, at fan-out, and stored with the delivery,
 * so every attempt and redelivery signs and sends the same bytes (interface.md "Signature" step 1).
 * The outbox keeps payloads as jsonb, which reorders keys; this puts them back in the order of
 * interface.md "Delivery envelope" (and decisions.md §6 for `media`), for bodies people can read.
 * Keys not listed keep their stored order after the listed ones.
 */
const ENVELOPE_ORDER = ['event', 'timestamp', 'project', 'environment', 'document', 'media', 'user', 'cursor'];
const NESTED_ORDER: Record<string, readonly string[]> = {
  document: ['documentId', 'translationGroupId', 'type', 'path', 'locale', 'format', 'version'],
  media: ['id', 'filename', 'mimeType', 'sizeBytes', 'url'],
  user: ['id', 'email'],
};

/** Serializes an event payload into the exact body of its deliveries. */
export function serializeEnvelope(payload: Record<string, unknown>): string {
  const ordered = orderKeys(payload, ENVELOPE_ORDER);
  for (const [key, order] of Object.entries(NESTED_ORDER)) {
    const value = ordered[key];
    if (isPlainObject(value)) ordered[key] = orderKeys(value, order);
  }
  return JSON.stringify(ordered);
}

function orderKeys(value: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key of order) if (Object.hasOwn(value, key)) result[key] = value[key];
  for (const [key, entry] of Object.entries(value)) if (!Object.hasOwn(result, key)) result[key] = entry;
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
