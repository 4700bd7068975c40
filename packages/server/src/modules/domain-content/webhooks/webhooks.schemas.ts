import { limitQuerySchema, OFFSET_QUERY_SCHEMA } from '../../../actions/query-schemas.js';
import { EVENT_TYPES } from '../../../storage/repositories/outbox.repository.js';

/** JSON Schemas of the webhook endpoints (interface.md "Webhook endpoints", decisions.md §6). */

/** Webhook secret length (interface.md "Limits"). */
export const WEBHOOK_SECRET_MIN_LENGTH = 32;
export const WEBHOOK_SECRET_MAX_LENGTH = 4096;
/** Longest accepted webhook url. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;
/** Delivery log page size (the list-endpoint convention of interface.md "Pagination"). */
export const DELIVERIES_PAGE_DEFAULT = 20;
export const DELIVERIES_PAGE_MAX = 100;

const uuid = { type: 'string', format: 'uuid' } as const;
const timestamp = { type: 'string', format: 'date-time' } as const;
const nullableTimestamp = { type: ['string', 'null'], format: 'date-time' } as const;
const url = { type: 'string', minLength: 1, maxLength: WEBHOOK_URL_MAX_LENGTH } as const;
// Event names are checked by the service, whose message lists the known ones; `examples` documents them.
const events = {
  type: 'array',
  minItems: 1,
  items: { type: 'string', minLength: 1, examples: [...EVENT_TYPES] },
} as const;
const secret = { type: 'string', minLength: WEBHOOK_SECRET_MIN_LENGTH, maxLength: WEBHOOK_SECRET_MAX_LENGTH } as const;
const deliveryStatus = { type: 'string', enum: ['pending', 'succeeded', 'failed', 'cancelled'] } as const;

/** Wire shape of a webhook; `secret` is write-only and not part of it. */
export const webhookSchema = {
  type: 'object',
  required: [
    'id',
    'project',
    'environment',
    'url',
    'events',
    'active',
    'createdBy',
    'updatedBy',
    'createdAt',
    'updatedAt',
  ],
  properties: {
    id: uuid,
    project: { type: 'string' },
    environment: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'array', items: { type: 'string' } },
    active: { type: 'boolean' },
    createdBy: { type: 'string' },
    updatedBy: { type: 'string' },
    createdAt: timestamp,
    updatedAt: timestamp,
  },
} as const;

/** `POST /webhooks` body. */
export const createWebhookBodySchema = {
  type: 'object',
  required: ['url', 'events', 'secret'],
  additionalProperties: false,
  properties: { url, events, secret, active: { type: 'boolean', default: true } },
} as const;

/** `PUT /webhooks/{id}` body: all optional; omit `secret` to keep the stored one. */
export const updateWebhookBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { url, events, secret, active: { type: 'boolean' } },
} as const;

/** `{ deleted: true, id }` */
export const deletedWebhookSchema = {
  type: 'object',
  required: ['deleted', 'id'],
  properties: { deleted: { type: 'boolean' }, id: uuid },
} as const;

/** Path of `/webhooks/{id}` routes. */
export const webhookIdParamsSchema = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: uuid },
} as const;

/** Path of `/webhooks/{id}/deliveries/{deliveryId}` routes. */
export const deliveryIdParamsSchema = {
  type: 'object',
  required: ['id', 'deliveryId'],
  additionalProperties: false,
  properties: { id: uuid, deliveryId: uuid },
} as const;

/** Query of the delivery log. */
export const listDeliveriesQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: limitQuerySchema(DELIVERIES_PAGE_DEFAULT, DELIVERIES_PAGE_MAX),
    offset: OFFSET_QUERY_SCHEMA,
    status: deliveryStatus,
  },
} as const;

const deliveryProperties = {
  id: uuid,
  event: { type: 'string' },
  eventId: uuid,
  status: deliveryStatus,
  attempts: { type: 'integer' },
  lastStatusCode: { type: ['integer', 'null'] },
  lastError: { type: ['string', 'null'] },
  durationMs: { type: ['integer', 'null'] },
  createdAt: timestamp,
  lastAttemptAt: nullableTimestamp,
  nextAttemptAt: nullableTimestamp,
} as const;

/** One entry of the delivery log. */
export const deliverySchema = {
  type: 'object',
  required: Object.keys(deliveryProperties),
  properties: deliveryProperties,
} as const;

/** A delivery with its attempts. */
export const deliveryDetailSchema = {
  type: 'object',
  required: [...Object.keys(deliveryProperties), 'attemptLog'],
  properties: {
    ...deliveryProperties,
    attemptLog: {
      type: 'array',
      items: {
        type: 'object',
        required: [
          'round',
          'attempt',
          'succeeded',
          'statusCode',
          'durationMs',
          'error',
          'responseSnippet',
          'attemptedAt',
        ],
        properties: {
          round: { type: 'integer' },
          attempt: { type: 'integer' },
          succeeded: { type: 'boolean' },
          statusCode: { type: ['integer', 'null'] },
          durationMs: { type: 'integer' },
          error: { type: ['string', 'null'] },
          responseSnippet: { type: ['string', 'null'] },
          attemptedAt: timestamp,
        },
      },
    },
  },
} as const;

/** `POST /webhooks/{id}/deliveries/redeliver` body: every failed delivery created since a time. */
export const redeliverFailedBodySchema = {
  type: 'object',
  required: ['status', 'since'],
  additionalProperties: false,
  properties: { status: { type: 'string', enum: ['failed'] }, since: timestamp },
} as const;

/** `{ redelivered: n }` */
export const redeliveredCountSchema = {
  type: 'object',
  required: ['redelivered'],
  properties: { redelivered: { type: 'integer' } },
} as const;
