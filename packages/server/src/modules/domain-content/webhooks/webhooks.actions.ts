import { defineAction } from '../../../actions/define-action.js';
import {
  createWebhookBodySchema,
  deletedWebhookSchema,
  updateWebhookBodySchema,
  webhookIdParamsSchema,
  webhookSchema,
} from './webhooks.schemas.js';
import type { CreateWebhookInput, UpdateWebhookInput, WebhooksService } from './webhooks.service.js';

/** Webhook configuration routes (interface.md "Webhook endpoints"). */
export function webhookActions(webhooks: WebhooksService) {
  return [
    defineAction({
      id: 'webhooks.list',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/webhooks',
      summary: 'List the webhooks of the environment',
      permissions: ['webhooks:read'],
      target: 'environment',
      response: { status: 200, envelope: 'single', schema: { type: 'array', items: webhookSchema } },
      handler: async (_input, ctx) => webhooks.list(ctx),
    }),
    defineAction<unknown, unknown, CreateWebhookInput>({
      id: 'webhooks.create',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/webhooks',
      summary: 'Create a webhook',
      permissions: ['webhooks:write'],
      target: 'environment',
      request: { body: createWebhookBodySchema },
      response: { status: 201, envelope: 'single', schema: webhookSchema },
      handler: async ({ body }, ctx) => webhooks.create(ctx, body),
    }),
    defineAction<{ id: string }, unknown, UpdateWebhookInput>({
      id: 'webhooks.update',
      kind: 'command',
      method: 'PUT',
      path: '/api/v1/webhooks/{id}',
      summary: 'Update a webhook (omit secret to keep it)',
      permissions: ['webhooks:write'],
      target: 'environment',
      request: { params: webhookIdParamsSchema, body: updateWebhookBodySchema },
      response: { status: 200, envelope: 'single', schema: webhookSchema },
      handler: async ({ params, body }, ctx) => webhooks.update(ctx, params.id, body),
    }),
    defineAction<{ id: string }>({
      id: 'webhooks.delete',
      kind: 'command',
      method: 'DELETE',
      path: '/api/v1/webhooks/{id}',
      summary: 'Delete a webhook and cancel its pending deliveries',
      permissions: ['webhooks:write'],
      target: 'environment',
      request: { params: webhookIdParamsSchema },
      response: { status: 200, envelope: 'single', schema: deletedWebhookSchema },
      handler: async ({ params }, ctx) => webhooks.remove(ctx, params.id),
    }),
  ];
}
