import { webhooksCreateRoute, webhooksDeleteRoute, webhooksListRoute, webhooksUpdateRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { WebhooksService } from './webhooks.service.js';

/** Webhook configuration routes (interface.md "Webhook endpoints"). */
export function webhookActions(webhooks: WebhooksService): AnyAction[] {
  return [
    defineAction({
      route: webhooksListRoute,
      permissions: ['webhooks:read'],
      handler: async (_input, ctx) => webhooks.list(ctx),
    }),
    defineAction({
      route: webhooksCreateRoute,
      permissions: ['webhooks:write'],
      handler: async ({ body }, ctx) => webhooks.create(ctx, body),
    }),
    defineAction({
      route: webhooksUpdateRoute,
      permissions: ['webhooks:write'],
      handler: async ({ params, body }, ctx) => webhooks.update(ctx, params.id, body),
    }),
    defineAction({
      route: webhooksDeleteRoute,
      permissions: ['webhooks:write'],
      handler: async ({ params }, ctx) => webhooks.remove(ctx, params.id),
    }),
  ];
}
