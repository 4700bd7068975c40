/** The action catalog and the OpenAPI document. */
import { type Static, Type } from 'typebox';
import { defineRoute } from './define-route.js';
import { AnyObject, StringEnum } from './shapes.js';

/** One action as `GET /api/v1/actions` describes it. */
export const CatalogItemSchema = Type.Object({
  id: Type.String(),
  kind: StringEnum(['command', 'query']),
  method: Type.String(),
  path: Type.String(),
  permissions: Type.Array(Type.String()),
  anyPermissions: Type.Optional(Type.Array(Type.String())),
  target: Type.Optional(StringEnum(['environment', 'project', 'optional', 'none'])),
  auth: Type.Optional(StringEnum(['required', 'optional', 'public'])),
  studio: Type.Optional(AnyObject),
  cli: Type.Optional(AnyObject),
  requestSchema: Type.Optional(AnyObject),
  responseSchema: Type.Optional(AnyObject),
});
export type CatalogItem = Static<typeof CatalogItemSchema>;

export const actionsListRoute = defineRoute({
  id: 'actions.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/actions',
  summary: 'List the actions the caller may perform in the current project and environment',
  target: 'optional',
  auth: 'optional',
  request: {},
  response: { status: 200, envelope: 'single', schema: Type.Array(CatalogItemSchema) },
});

export const actionsGetRoute = defineRoute({
  id: 'actions.get',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/actions/{id}',
  summary: 'Describe one action',
  target: 'optional',
  auth: 'optional',
  request: { params: Type.Object({ id: Type.String({ maxLength: 200 }) }) },
  response: { status: 200, envelope: 'single', schema: CatalogItemSchema },
});

export const openApiGetRoute = defineRoute({
  id: 'openapi.get',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/openapi.json',
  summary: 'The OpenAPI 3.1 document of every action',
  target: 'none',
  auth: 'public',
  request: {},
  response: { status: 200, envelope: 'raw' },
});
