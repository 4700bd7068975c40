import { apiKeysCreateRoute, apiKeysListRoute, apiKeysRevokeCurrentRoute, apiKeysRevokeRoute } from '@cms/core';
import { defineAction } from '../../actions/define-action.js';
import type { ApiKeysService } from './api-keys.service.js';

/** API key management (`settings:manage`), and a key revoking itself (any valid key). */
export function apiKeyActions(apiKeys: ApiKeysService) {
  return [
    defineAction({
      route: apiKeysCreateRoute,
      permissions: ['settings:manage'],
      handler: async ({ body }, ctx) => apiKeys.create(ctx, body),
    }),
    defineAction({
      route: apiKeysListRoute,
      permissions: ['settings:manage'],
      handler: async (_input, ctx) => apiKeys.list(ctx),
    }),
    defineAction({
      route: apiKeysRevokeCurrentRoute,
      permissions: [],
      handler: async (_input, ctx) => apiKeys.revokeCurrent(ctx),
    }),
    defineAction({
      route: apiKeysRevokeRoute,
      permissions: ['settings:manage'],
      handler: async ({ params }, ctx) => apiKeys.revoke(ctx, params.id),
    }),
  ];
}
