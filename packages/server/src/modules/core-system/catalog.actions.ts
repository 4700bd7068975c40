import { actionsGetRoute, actionsListRoute, openApiGetRoute } from '@cms/core';
import { defineAction } from '../../actions/define-action.js';
import type { CatalogService } from './catalog.service.js';

/** The action catalog and the OpenAPI document. */
export function catalogActions(catalog: CatalogService) {
  return [
    defineAction({
      route: actionsListRoute,
      permissions: [],
      handler: async (_input, ctx) => catalog.list(ctx),
    }),
    defineAction({
      route: actionsGetRoute,
      permissions: [],
      handler: async ({ params }, ctx) => catalog.get(ctx, params.id),
    }),
    defineAction({
      route: openApiGetRoute,
      permissions: [],
      handler: async () => catalog.openApi(),
    }),
  ];
}
