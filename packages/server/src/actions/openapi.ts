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
  const requestBody = requestBodyOf(action);
  return {
    operationId: action.id,
    summary: action.summary,
    'x-cms-kind': action.kind,
    // Every scope of `x-cms-permissions`, and one of `x-cms-any-permissions` when present.
    'x-cms-permissions': action.permissions,
    ...(action.anyPermissions?.length ? { 'x-cms-any-permissions': action.anyPermissions } : {}),
    parameters: [
      ...pathParameters(action),
      ...queryParameters(action.request?.query),
      ...targetHeaders(action),
      ...declaredHeaders(action.request?.headers),
    ],
    ...(requestBody ? { requestBody } : {}),
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

/** A JSON body is required unless its schema allows `null` (an absent body validates as null). */
function requestBodyOf(action: AnyAction): Record<string, unknown> | null {
  const { body, multipart } = action.request ?? {};
  if (multipart) return { required: true, content: { 'multipart/form-data': { schema: multipart } } };
  if (!body) return null;
  return { required: !allowsNull(body), content: { 'application/json': { schema: body } } };
}

function allowsNull(schema: JsonSchema): boolean {
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (schema.nullable === true) return true;
  const alternatives = [...((schema.anyOf ?? []) as JsonSchema[]), ...((schema.oneOf ?? []) as JsonSchema[])];
  return alternatives.some(allowsNull);
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

/** Headers the action declares (`X-CMS-Schema-Hash`, `X-CMS-Locale`), besides the routing ones. */
function declaredHeaders(headers: JsonSchema | undefined): unknown[] {
  if (!headers) return [];
  const properties = (headers.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(((headers.required ?? []) as string[]).map((name) => name.toLowerCase()));
  return Object.entries(properties).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return {
      name: headerDisplayName(name),
      in: 'header',
      required: required.has(name.toLowerCase()),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

/** `x-cms-schema-hash` -> `X-CMS-Schema-Hash`, as interface.md writes header names. */
function headerDisplayName(name: string): string {
  return name
    .split('-')
    .map((part) => (part.toLowerCase() === 'cms' ? 'CMS' : part.charAt(0).toUpperCase() + part.slice(1)))
    .join('-');
}
