/** Webhook and delivery log routes (interface.md "Webhook endpoints", decisions.md §6). */
import { type Static, Type } from 'typebox';
import { defineRoute } from './define-route.js';
import { EVENT_TYPES } from './events.js';
import { LimitQuery, Nullable, OffsetQuery, StringEnum, Timestamp, Uuid, WithDefault } from './shapes.js';

/** Webhook secret length (interface.md "Limits"). */
export const WEBHOOK_SECRET_MIN_LENGTH = 32;
export const WEBHOOK_SECRET_MAX_LENGTH = 4096;
/** Longest accepted webhook url. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;
/** Delivery log page size (the list-endpoint convention of interface.md "Pagination"). */
export const DELIVERIES_PAGE_DEFAULT = 20;
export const DELIVERIES_PAGE_MAX = 100;

const WebhookUrl = Type.String({ minLength: 1, maxLength: WEBHOOK_URL_MAX_LENGTH });
// Event names are checked by the server, whose message lists the known ones; `examples` documents them.
const WebhookEvents = Type.Array(Type.String({ minLength: 1, examples: [...EVENT_TYPES] }), { minItems: 1 });
const WebhookSecret = Type.String({ minLength: WEBHOOK_SECRET_MIN_LENGTH, maxLength: WEBHOOK_SECRET_MAX_LENGTH });

export const DeliveryStatusSchema = StringEnum(['pending', 'succeeded', 'failed', 'cancelled']);
export type DeliveryStatus = Static<typeof DeliveryStatusSchema>;

/** Wire shape of a webhook; `secret` is write-only and not part of it. */
export const WebhookSchema = Type.Object({
  id: Uuid,
  project: Type.String(),
  environment: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  active: Type.Boolean(),
  createdBy: Type.String(),
  updatedBy: Type.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Webhook = Static<typeof WebhookSchema>;

/** `POST /webhooks` body. */
export const CreateWebhookBodySchema = Type.Object(
  { url: WebhookUrl, events: WebhookEvents, secret: WebhookSecret, active: WithDefault(Type.Boolean(), true) },
  { additionalProperties: false },
);

/** `PUT /webhooks/{id}` body: all optional; omit `secret` to keep the stored one. */
export const UpdateWebhookBodySchema = Type.Object(
  {
    url: Type.Optional(WebhookUrl),
    events: Type.Optional(WebhookEvents),
    secret: Type.Optional(WebhookSecret),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** `{ deleted: true, id }` */
export const DeletedWebhookSchema = Type.Object({ deleted: Type.Boolean(), id: Uuid });

/** Path of `/webhooks/{id}` routes. */
export const WebhookIdParamsSchema = Type.Object({ id: Uuid }, { additionalProperties: false });

/** Path of `/webhooks/{id}/deliveries/{deliveryId}` routes. */
export const DeliveryIdParamsSchema = Type.Object({ id: Uuid, deliveryId: Uuid }, { additionalProperties: false });

/** Query of the delivery log. */
export const ListDeliveriesQuerySchema = Type.Object(
  {
    limit: WithDefault(LimitQuery(DELIVERIES_PAGE_DEFAULT, DELIVERIES_PAGE_MAX), DELIVERIES_PAGE_DEFAULT),
    offset: WithDefault(OffsetQuery, 0),
    status: Type.Optional(DeliveryStatusSchema),
  },
  { additionalProperties: false },
);

const deliveryProperties = {
  id: Uuid,
  event: Type.String(),
  eventId: Uuid,
  status: DeliveryStatusSchema,
  attempts: Type.Integer(),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  durationMs: Nullable(Type.Integer()),
  createdAt: Timestamp,
  lastAttemptAt: Nullable(Timestamp),
  nextAttemptAt: Nullable(Timestamp),
};

/** One entry of the delivery log. */
export const DeliverySchema = Type.Object(deliveryProperties);
export type Delivery = Static<typeof DeliverySchema>;

/** One attempt of a delivery. */
export const DeliveryAttemptSchema = Type.Object({
  round: Type.Integer(),
  attempt: Type.Integer(),
  succeeded: Type.Boolean(),
  statusCode: Nullable(Type.Integer()),
  durationMs: Type.Integer(),
  error: Nullable(Type.String()),
  responseSnippet: Nullable(Type.String()),
  attemptedAt: Timestamp,
});

/** A delivery with its attempts. */
export const DeliveryDetailSchema = Type.Object({
  ...deliveryProperties,
  attemptLog: Type.Array(DeliveryAttemptSchema),
});
export type DeliveryDetail = Static<typeof DeliveryDetailSchema>;

/** `POST /webhooks/{id}/deliveries/redeliver` body: every failed delivery created since a time. */
export const RedeliverFailedBodySchema = Type.Object(
  { status: StringEnum(['failed']), since: Timestamp },
  { additionalProperties: false },
);

/** `{ redelivered: n }` */
export const RedeliveredCountSchema = Type.Object({ redelivered: Type.Integer() });

export const webhooksListRoute = defineRoute({
  id: 'webhooks.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/webhooks',
  summary: 'List the webhooks of the environment',
  target: 'environment',
  request: {},
  response: { status: 200, envelope: 'single', schema: Type.Array(WebhookSchema) },
});

export const webhooksCreateRoute = defineRoute({
  id: 'webhooks.create',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/webhooks',
  summary: 'Create a webhook',
  target: 'environment',
  request: { body: CreateWebhookBodySchema },
  response: { status: 201, envelope: 'single', schema: WebhookSchema },
});

export const webhooksUpdateRoute = defineRoute({
  id: 'webhooks.update',
  kind: 'command',
  method: 'PUT',
  path: '/api/v1/webhooks/{id}',
  summary: 'Update a webhook (omit secret to keep it)',
  target: 'environment',
  request: { params: WebhookIdParamsSchema, body: UpdateWebhookBodySchema },
  response: { status: 200, envelope: 'single', schema: WebhookSchema },
});

export const webhooksDeleteRoute = defineRoute({
  id: 'webhooks.delete',
  kind: 'command',
  method: 'DELETE',
  path: '/api/v1/webhooks/{id}',
  summary: 'Delete a webhook and cancel its pending deliveries',
  target: 'environment',
  request: { params: WebhookIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: DeletedWebhookSchema },
});

export const webhooksDeliveriesListRoute = defineRoute({
  id: 'webhooks.deliveries.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/webhooks/{id}/deliveries',
  summary: "List a webhook's deliveries, newest first",
  target: 'environment',
  request: { params: WebhookIdParamsSchema, query: ListDeliveriesQuerySchema },
  response: { status: 200, envelope: 'paginated', schema: DeliverySchema },
});

export const webhooksDeliveriesGetRoute = defineRoute({
  id: 'webhooks.deliveries.get',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/webhooks/{id}/deliveries/{deliveryId}',
  summary: 'Get a delivery with every attempt made',
  target: 'environment',
  request: { params: DeliveryIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: DeliveryDetailSchema },
});

export const webhooksDeliveriesRedeliverRoute = defineRoute({
  id: 'webhooks.deliveries.redeliver',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
  summary: 'Redeliver one delivery (same id, attempts start over)',
  target: 'environment',
  request: { params: DeliveryIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: DeliverySchema },
});

export const webhooksDeliveriesRedeliverFailedRoute = defineRoute({
  id: 'webhooks.deliveries.redeliverFailed',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/webhooks/{id}/deliveries/redeliver',
  summary: 'Redeliver every failed delivery created since a time',
  target: 'environment',
  request: { params: WebhookIdParamsSchema, body: RedeliverFailedBodySchema },
  response: { status: 200, envelope: 'single', schema: RedeliveredCountSchema },
});
