import { defineAction } from '../../../actions/define-action.js';
import type { DeliveriesService, ListDeliveriesQuery } from './deliveries.service.js';
import {
  deliveryDetailSchema,
  deliveryIdParamsSchema,
  deliverySchema,
  listDeliveriesQuerySchema,
  redeliveredCountSchema,
  redeliverFailedBodySchema,
  webhookIdParamsSchema,
} from './webhooks.schemas.js';

/** Delivery log and redelivery routes (decisions.md §6). */
export function deliveryActions(deliveries: DeliveriesService) {
  return [
    defineAction<{ id: string }, ListDeliveriesQuery>({
      id: 'webhooks.deliveries.list',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/webhooks/{id}/deliveries',
      summary: "List a webhook's deliveries, newest first",
      permissions: ['webhooks:read'],
      target: 'environment',
      request: { params: webhookIdParamsSchema, query: listDeliveriesQuerySchema },
      response: { status: 200, envelope: 'paginated', schema: deliverySchema },
      handler: async ({ params, query }, ctx) => deliveries.list(ctx, params.id, query),
    }),
    defineAction<{ id: string; deliveryId: string }>({
      id: 'webhooks.deliveries.get',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/webhooks/{id}/deliveries/{deliveryId}',
      summary: 'Get a delivery with every attempt made',
      permissions: ['webhooks:read'],
      target: 'environment',
      request: { params: deliveryIdParamsSchema },
      response: { status: 200, envelope: 'single', schema: deliveryDetailSchema },
      handler: async ({ params }, ctx) => deliveries.get(ctx, params.id, params.deliveryId),
    }),
    defineAction<{ id: string; deliveryId: string }>({
      id: 'webhooks.deliveries.redeliver',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      summary: 'Redeliver one delivery (same id, attempts start over)',
      permissions: ['webhooks:write'],
      target: 'environment',
      request: { params: deliveryIdParamsSchema },
      response: { status: 200, envelope: 'single', schema: deliverySchema },
      handler: async ({ params }, ctx) => deliveries.redeliver(ctx, params.id, params.deliveryId),
    }),
    defineAction<{ id: string }, unknown, { status: 'failed'; since: string }>({
      id: 'webhooks.deliveries.redeliverFailed',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/webhooks/{id}/deliveries/redeliver',
      summary: 'Redeliver every failed delivery created since a time',
      permissions: ['webhooks:write'],
      target: 'environment',
      request: { params: webhookIdParamsSchema, body: redeliverFailedBodySchema },
      response: { status: 200, envelope: 'single', schema: redeliveredCountSchema },
      handler: async ({ params, body }, ctx) => deliveries.redeliverFailed(ctx, params.id, body),
    }),
  ];
}
