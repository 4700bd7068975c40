import { ErrorEnvelopeSchema, envelopeSchema } from '@cms/core';
import { withIntegerBounds } from '../http/input-rules.js';
import { errorCodesByStatus } from './action-errors.js';
import { catalogPermissions } from './catalog-permissions.js';
import type { AnyAction, JsonSchema } from './define-action.js';
import { querySchemaOf } from './mount-actions.js';

/**
 * Headers the service requires although their schema does not (their absence is a domain error,
 * `SCHEMA_HASH_MISMATCH` 409, rather than a validation error): OpenAPI marks them required.
 */
const REQUIRED_BY_SERVICE = new Set(['x-cms-schema-hash']);

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  408: 'Request timeout',
  409: 'Conflict',
  413: 'Payload too large',
  410: 'Gone',
  415: 'Unsupported media type',
  422: 'Unprocessable content',
  429: 'Too many requests',
  431: 'Request headers too large',
  500: 'Internal error',
  503: 'Service unavailable',
};

/** Builds the OpenAPI 3.1 document from the same action declarations the routes are mounted from. */
export function buildOpenApiDocument(actions: readonly AnyAction[], info: { version: string; serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const action of actions) {
    const path = openApiPath(action.path);
    const operations = paths[path] ?? {};
    operations[action.method.toLowerCase()] = operationOf(action);
    paths[path] = operations;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'CMS API', version: info.version, license: { name: 'MIT', identifier: 'MIT' } },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      schemas: { Error: ErrorEnvelopeSchema },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'cms_key_live_..., cms_key_cli_... or cms_key_preview_...',
        },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'cms_session',
          description: 'Named __Host-cms_session when the server is served over https (both names are read)',
        },
      },
    },
  };
}

/**
 * A trailing wildcard (`/*`, the media file name) is the path parameter `{fileName}` in OpenAPI and
 * the action catalog, so every path there is a template of `{name}` parameters.
 */
export function openApiPath(path: string): string {
  return path.endsWith('/*') ? `${path.slice(0, -2)}/{fileName}` : path;
}

function operationOf(action: AnyAction): Record<string, unknown> {
  const requestBody = requestBodyOf(action);
  const permissions = catalogPermissions(action);
  const query = querySchemaOf(action);
  return {
    operationId: action.id,
    summary: action.summary,
    'x-cms-kind': action.kind,
    // Every scope of `x-cms-permissions`; `x-cms-any-permissions` lists alternatives, one of which suffices.
    'x-cms-permissions': permissions.permissions,
    ...(permissions.anyPermissions ? { 'x-cms-any-permissions': permissions.anyPermissions } : {}),
    parameters: [
      ...pathParameters(action),
      ...queryParameters(withIntegerBounds(query)),
      ...targetHeaders(action),
      ...declaredHeaders(action.request?.headers),
    ],
    ...(requestBody ? { requestBody } : {}),
    responses: {
      [action.response.status]: successResponse(action),
      ...validatorResponses(action),
      ...Object.fromEntries(
        [...errorCodesByStatus(action)].map(([status, codes]) => [
          String(status),
          {
            description: `${STATUS_TEXT[status] ?? 'Error'}: ${codes.join(', ')}`,
            'x-cms-error-codes': codes,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ]),
      ),
    },
    security: action.auth === 'public' ? [] : [{ apiKey: [] }, { session: [] }],
  };
}

/** The success answer: the envelope, a raw JSON document (health, OpenAPI), a stream or document of its own type, or a file. */
function successResponse(action: AnyAction): Record<string, unknown> {
  const body = envelopeSchema(action.response);
  if (body) return { description: 'Success', content: { 'application/json': { schema: body } } };
  if (action.response.status === 302) {
    return {
      description:
        'A redirect for the browser, on success and on failure alike: to the Studio signed in, or to its sign-in page with `error=<CODE>&reason=<reason>`',
      headers: { Location: { required: true, schema: { type: 'string', format: 'uri' } } },
    };
  }
  if (action.response.envelope === 'raw' && action.response.schema) {
    return { description: 'Success', content: { 'application/json': { schema: action.response.schema } } };
  }
  if (action.path.endsWith('.json')) {
    return { description: 'Success', content: { 'application/json': { schema: { type: 'object' } } } };
  }
  const { contentType } = action.response;
  if (contentType) {
    return { description: 'Success', content: { [contentType]: { schema: { type: 'string' } } } };
  }
  return {
    description: 'The file, with its stored Content-Type',
    content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
  };
}

/** `304` for routes that honour `If-None-Match`, `206` and `416` for those that honour `Range`. */
function validatorResponses(action: AnyAction): Record<string, unknown> {
  const { conditional, ranges } = action.response;
  return {
    ...(conditional ? { 304: { description: 'Not modified: the copy the client holds (its ETag) is current' } } : {}),
    ...(ranges
      ? {
          206: {
            description: 'The range asked for (`Range: bytes=...`), with Content-Range',
            content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
          },
          416: {
            description: 'The range is outside the file: Content-Range names its size (`bytes */<size>`)',
            headers: { 'Content-Range': { required: true, schema: { type: 'string' } } },
          },
        }
      : {}),
  };
}

/** A JSON body is required unless its schema allows `null` (an absent body validates as null). */
function requestBodyOf(action: AnyAction): Record<string, unknown> | null {
  const { body, multipart } = action.request ?? {};
  if (multipart) return { required: true, content: { 'multipart/form-data': { schema: multipart } } };
  if (!body) return null;
  return { required: !allowsNull(body), content: { 'application/json': { schema: withIntegerBounds(body) } } };
}

function allowsNull(schema: JsonSchema): boolean {
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (schema.nullable === true) return true;
  const alternatives = [...((schema.anyOf ?? []) as JsonSchema[]), ...((schema.oneOf ?? []) as JsonSchema[])];
  return alternatives.some(allowsNull);
}

function pathParameters(action: AnyAction): unknown[] {
  const properties = (withIntegerBounds(action.request?.params)?.properties ?? {}) as Record<string, JsonSchema>;
  return [...openApiPath(action.path).matchAll(/\{([A-Za-z0-9_]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: properties[name === 'fileName' ? '*' : (name as string)] ?? { type: 'string' },
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
      required: required.has(name.toLowerCase()) || REQUIRED_BY_SERVICE.has(name.toLowerCase()),
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
