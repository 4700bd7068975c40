import { schemaGetRoute, schemaListRoute, schemaSyncRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { SchemaService } from './schema.service.js';

/** Schema registry routes (interface.md "Schema endpoints"). */
export function schemaActions(schema: SchemaService): AnyAction[] {
  return [
    defineAction({
      route: schemaListRoute,
      permissions: ['schema:read'],
      handler: async (_input, ctx) => schema.list(ctx),
    }),
    defineAction({
      route: schemaGetRoute,
      permissions: ['schema:read'],
      handler: async ({ params }, ctx) => schema.get(ctx, params.type),
    }),
    defineAction({
      route: schemaSyncRoute,
      permissions: ['schema:write'],
      cli: { inputMode: 'file' },
      handler: async ({ body }, ctx) => schema.sync(ctx, body),
    }),
  ];
}
