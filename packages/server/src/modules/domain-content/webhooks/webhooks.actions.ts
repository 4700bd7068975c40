import { webhooksCreateRoute, webhooksDeleteRoute, webhooksListRoute, webhooksUpdateRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { WebhooksService } from './webhooks.service.js';

/** Webhook configuration routes (interface.md "Webhook endpoints"). */
export function webhookActions(webhooks: WebhooksService): AnyAction[] {
  return [
    defineAction({
      route: webhooksListRoute,
      permissions: ['webhooks:read'],
      handler: async (input, ctx) => webhooks.list(ctx, input),
    }),
    defineAction({
      route: webhooksCreateRoute,
      permissions: ['webhooks:write'],
      handler: async (input, ctx) => webhooks.create(ctx, input),
    }),
    defineAction({
      route: webhooksUpdateRoute,
      permissions: ['webhooks:write'],
      handler: async (input, ctx) => webhooks.update(ctx, input),
    }),
    defineAction({
      route: webhooksDeleteRoute,
      permissions: ['webhooks:write'],
      handler: async (input, ctx) => webhooks.remove(ctx, input),
    }),
  ];
}
