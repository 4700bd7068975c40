import {
  webhooksDeliveriesGetRoute,
  webhooksDeliveriesListRoute,
  webhooksDeliveriesRedeliverFailedRoute,
  webhooksDeliveriesRedeliverRoute,
} from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { WebhookDeliveriesService } from './webhook-deliveries.service.js';

/** Delivery log and redelivery routes (decisions.md §6). */
export function webhookDeliveryActions(deliveries: WebhookDeliveriesService): AnyAction[] {
  return [
    defineAction({
      route: webhooksDeliveriesListRoute,
      permissions: ['webhooks:read'],
      handler: async ({ params, query }, ctx) => deliveries.list(ctx, params.id, query),
    }),
    defineAction({
      route: webhooksDeliveriesGetRoute,
      permissions: ['webhooks:read'],
      handler: async ({ params }, ctx) => deliveries.get(ctx, params.id, params.deliveryId),
    }),
    defineAction({
      route: webhooksDeliveriesRedeliverRoute,
      permissions: ['webhooks:write'],
      handler: async ({ params }, ctx) => deliveries.redeliver(ctx, params.id, params.deliveryId),
    }),
    defineAction({
      route: webhooksDeliveriesRedeliverFailedRoute,
      permissions: ['webhooks:write'],
      handler: async ({ params, body }, ctx) => deliveries.redeliverFailed(ctx, params.id, body),
    }),
  ];
}
