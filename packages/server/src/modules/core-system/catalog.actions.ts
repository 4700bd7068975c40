import { defineAction } from '../../actions/define-action.js';
import type { CatalogService } from './catalog.service.js';

const catalogItemSchema = {
  type: 'object',
  required: ['id', 'kind', 'method', 'path', 'permissions'],
  properties: {
    id: { type: 'string' },
    kind: { type: 'string', enum: ['command', 'query'] },
    method: { type: 'string' },
    path: { type: 'string' },
    permissions: { type: 'array', items: { type: 'string' } },
    anyPermissions: { type: 'array', items: { type: 'string' } },
    target: { type: 'string', enum: ['environment', 'project', 'optional', 'none'] },
    auth: { type: 'string', enum: ['required', 'optional', 'public'] },
    studio: { type: 'object', additionalProperties: true },
    cli: { type: 'object', additionalProperties: true },
    requestSchema: { type: 'object', additionalProperties: true },
    responseSchema: { type: 'object', additionalProperties: true },
  },
};

/** The action catalog and the OpenAPI document. */
export function catalogActions(catalog: CatalogService) {
  return [
    defineAction({
      id: 'actions.list',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/actions',
      summary: 'List the actions the caller may perform in the current project and environment',
      permissions: [],
      target: 'optional',
      auth: 'optional',
      response: { status: 200, envelope: 'single', schema: { type: 'array', items: catalogItemSchema } },
      handler: async (_input, ctx) => catalog.list(ctx),
    }),
    defineAction<{ id: string }>({
      id: 'actions.get',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/actions/{id}',
      summary: 'Describe one action',
      permissions: [],
      target: 'optional',
      auth: 'optional',
      request: { params: { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 200 } } } },
      response: { status: 200, envelope: 'single', schema: catalogItemSchema },
      handler: async ({ params }, ctx) => catalog.get(ctx, params.id),
    }),
    defineAction({
      id: 'openapi.get',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/openapi.json',
      summary: 'The OpenAPI 3.1 document of every action',
      permissions: [],
      target: 'none',
      auth: 'public',
      response: { status: 200, envelope: 'raw' },
      handler: async () => catalog.openApi(),
    }),
  ];
}
