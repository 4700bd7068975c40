import { defineAction } from '../../actions/define-action.js';
import {
  apiKeyIdParamsSchema,
  apiKeySchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
  revokedApiKeySchema,
} from './api-keys.schemas.js';
import type { ApiKeysService, CreateApiKeyInput } from './api-keys.service.js';

/** API key management (`settings:manage`), and a key revoking itself (any valid key). */
export function apiKeyActions(apiKeys: ApiKeysService) {
  return [
    defineAction<unknown, unknown, CreateApiKeyInput>({
      id: 'api-keys.create',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/api-keys',
      summary: 'Create an API key; the key itself is shown in this answer only',
      permissions: ['settings:manage'],
      target: 'none',
      request: { body: createApiKeyBodySchema },
      response: { status: 201, envelope: 'single', schema: createdApiKeySchema },
      handler: async ({ body }, ctx) => apiKeys.create(ctx, body),
    }),
    defineAction({
      id: 'api-keys.list',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/api-keys',
      summary: 'List API keys (never their secrets)',
      permissions: ['settings:manage'],
      target: 'none',
      response: { status: 200, envelope: 'single', schema: { type: 'array', items: apiKeySchema } },
      handler: async (_input, ctx) => apiKeys.list(ctx),
    }),
    defineAction({
      id: 'api-keys.revokeCurrent',
      kind: 'command',
      method: 'DELETE',
      path: '/api/v1/api-keys/current',
      summary: 'Revoke the API key presenting this request (sign a key out); any valid key may',
      permissions: [],
      target: 'none',
      response: { status: 200, envelope: 'single', schema: revokedApiKeySchema },
      handler: async (_input, ctx) => apiKeys.revokeCurrent(ctx),
    }),
    defineAction<{ id: string }>({
      id: 'api-keys.revoke',
      kind: 'command',
      method: 'DELETE',
      path: '/api/v1/api-keys/{id}',
      summary: 'Revoke an API key; it stops working at once in every server process',
      permissions: ['settings:manage'],
      target: 'none',
      request: { params: apiKeyIdParamsSchema },
      response: { status: 200, envelope: 'single', schema: revokedApiKeySchema },
      handler: async ({ params }, ctx) => apiKeys.revoke(ctx, params.id),
    }),
  ];
}
