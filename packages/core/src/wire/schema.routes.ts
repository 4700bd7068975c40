/** Schema registry routes (interface.md "Schema endpoints", "Schema type"). */
import { type Static, Type } from 'typebox';
import { defineRoute } from './define-route.js';
import { AnyObject, Timestamp } from './shapes.js';

const schemaTypeProperties = {
  name: Type.String(),
  directory: Type.String(),
  localized: Type.Boolean(),
  // Field metadata nests (objects, array items); its structure is checked at sync by validateResolvedSchema.
  fields: AnyObject,
};

/** A content type of the registry. */
export const SchemaTypeSchema = Type.Object(schemaTypeProperties);
export type SchemaTypeEntry = Static<typeof SchemaTypeSchema>;

/**
 * The locales of the config the schema in force was synced from (`locales` of cms.config, the
 * environment's own when it has some): the default first in `supported`. Absent when that sync sent
 * none (a client other than the CLI).
 */
export const SchemaLocalesSchema = Type.Object({ default: Type.String(), supported: Type.Array(Type.String()) });
export type SchemaLocales = Static<typeof SchemaLocalesSchema>;

/** `GET /schema` answer. */
export const SchemaListSchema = Type.Object({
  types: Type.Array(SchemaTypeSchema),
  schemaHash: Type.String(),
  locales: Type.Optional(SchemaLocalesSchema),
});
export type SchemaList = Static<typeof SchemaListSchema>;

/** `GET /schema/{type}` answer: the type plus the hash in force. */
export const SchemaTypeWithHashSchema = Type.Object({ ...schemaTypeProperties, schemaHash: Type.String() });
export type SchemaTypeWithHash = Static<typeof SchemaTypeWithHashSchema>;

/** `GET /schema/{type}` path. */
export const SchemaTypeParamsSchema = Type.Object(
  { type: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);

/** `PUT /schema/sync` body; `resolvedSchema` is validated in depth by the server (core's validateResolvedSchema). */
export const SyncSchemaBodySchema = Type.Object(
  { rawConfigSnapshot: AnyObject, resolvedSchema: AnyObject, schemaHash: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);
export type SyncSchemaBody = Static<typeof SyncSchemaBodySchema>;

/** `PUT /schema/sync` answer. */
export const SyncSchemaResultSchema = Type.Object({
  synced: Type.Boolean(),
  schemaHash: Type.String(),
  typesCount: Type.Integer(),
  types: Type.Array(Type.String()),
  syncedAt: Timestamp,
  syncedBy: Type.String(),
});
export type SyncSchemaResult = Static<typeof SyncSchemaResultSchema>;

export const schemaListRoute = defineRoute({
  id: 'schema.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/schema',
  summary: 'List the content types in force and the schema hash',
  target: 'environment',
  request: {},
  response: { status: 200, envelope: 'single', schema: SchemaListSchema },
});

export const schemaGetRoute = defineRoute({
  id: 'schema.get',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/schema/{type}',
  summary: 'Get one content type and the schema hash',
  target: 'environment',
  request: { params: SchemaTypeParamsSchema },
  response: { status: 200, envelope: 'single', schema: SchemaTypeWithHashSchema },
  errors: ['SCHEMA_NOT_FOUND'],
});

export const schemaSyncRoute = defineRoute({
  id: 'schema.sync',
  kind: 'command',
  method: 'PUT',
  path: '/api/v1/schema/sync',
  summary: 'Push the resolved schema (idempotent, non-destructive)',
  target: 'environment',
  request: { body: SyncSchemaBodySchema },
  response: { status: 200, envelope: 'single', schema: SyncSchemaResultSchema },
});
