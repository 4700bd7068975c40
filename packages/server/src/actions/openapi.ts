import { ERROR_CATALOG } from '@cms/core';
import type { AnyAction, JsonSchema } from './define-action.js';
import { ERROR_ENVELOPE_SCHEMA, responseBodySchema } from './envelope-schemas.js';

/** Builds the OpenAPI 3.1 document from the same action declarations the routes are mounted from. */
export function buildOpenApiDocument(actions: readonly AnyAction[], info: { version: string; serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const action of actions) {
    const operations = paths[action.path] ?? {};
    operations[action.method.toLowerCase()] = operationOf(action);
    paths[action.path] = operations;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'CMS API', version: info.version },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      schemas: { Error: ERROR_ENVELOPE_SCHEMA },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'cms_key_live_..., cms_key_cli_... or cms_key_preview_...',
        },
        session: { type: 'apiKey', in: 'cookie', name: 'cms_session' },
      },
    },
  };
}

function operationOf(action: AnyAction): Record<string, unknown> {
  const body = responseBodySchema(action);
  const errorResponse = {
    description: 'Error envelope',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
  const errorStatuses = new Set(Object.values(ERROR_CATALOG).map((entry: { status: number }) => String(entry.status)));
  return {
    operationId: action.id,
    summary: action.summary,
    'x-cms-kind': action.kind,
    'x-cms-permissions': action.permissions,
    parameters: [...pathParameters(action), ...queryParameters(action.request?.query), ...targetHeaders(action)],
    ...(action.request?.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: action.request.body } } } }
      : {}),
    responses: {
      [action.response.status]: {
        description: 'Success',
        ...(body ? { content: { 'application/json': { schema: body } } } : {}),
      },
      ...Object.fromEntries([...errorStatuses].map((status) => [status, errorResponse])),
    },
    security: action.auth === 'public' ? [] : [{ apiKey: [] }, { session: [] }],
  };
}

function pathParameters(action: AnyAction): unknown[] {
  const properties = (action.request?.params?.properties ?? {}) as Record<string, JsonSchema>;
  return [...action.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: properties[name as string] ?? { type: 'string' },
  }));
}

function queryParameters(query: JsonSchema | undefined): unknown[] {
  if (!query) return [];
  const properties = (query.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((query.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema,
  }));
}

function targetHeaders(action: AnyAction): unknown[] {
  if (action.target === 'none') return [];
  const required = action.target !== 'optional';
  return [
    { name: 'X-CMS-Project', in: 'header', required, schema: { type: 'string' } },
    {
      name: 'X-CMS-Environment',
      in: 'header',
      required: required && action.target === 'environment',
      schema: { type: 'string' },
    },
  ];
}
