import { defineAction } from '../../../actions/define-action.js';
import {
  schemaListSchema,
  schemaTypeParamsSchema,
  schemaTypeWithHashSchema,
  syncSchemaBodySchema,
  syncSchemaResultSchema,
} from './schema.schemas.js';
import type { SchemaService, SyncSchemaInput } from './schema.service.js';

/** Schema registry routes (interface.md "Schema endpoints"). */
export function schemaActions(schema: SchemaService) {
  return [
    defineAction({
      id: 'schema.list',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/schema',
      summary: 'List the content types in force and the schema hash',
      permissions: ['schema:read'],
      target: 'environment',
      response: { status: 200, envelope: 'single', schema: schemaListSchema },
      handler: async (_input, ctx) => schema.list(ctx),
    }),
    defineAction<{ type: string }>({
      id: 'schema.get',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/schema/{type}',
      summary: 'Get one content type and the schema hash',
      permissions: ['schema:read'],
      target: 'environment',
      request: { params: schemaTypeParamsSchema },
      response: { status: 200, envelope: 'single', schema: schemaTypeWithHashSchema },
      handler: async ({ params }, ctx) => schema.get(ctx, params.type),
    }),
    defineAction<unknown, unknown, SyncSchemaInput>({
      id: 'schema.sync',
      kind: 'command',
      method: 'PUT',
      path: '/api/v1/schema/sync',
      summary: 'Push the resolved schema (idempotent, non-destructive)',
      permissions: ['schema:write'],
      target: 'environment',
      request: { body: syncSchemaBodySchema },
      response: { status: 200, envelope: 'single', schema: syncSchemaResultSchema },
      cli: { inputMode: 'file' },
      handler: async ({ body }, ctx) => schema.sync(ctx, body),
    }),
  ];
}
