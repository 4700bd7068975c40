/** JSON Schemas of the schema registry endpoints (interface.md "Schema endpoints", "Schema type"). */

const anyObject = { type: 'object', additionalProperties: true } as const;

const schemaTypeProperties = {
  name: { type: 'string' },
  directory: { type: 'string' },
  localized: { type: 'boolean' },
  // Field metadata nests (objects, array items); its structure is checked at sync by validateResolvedSchema.
  fields: anyObject,
} as const;

/** A content type of the registry. */
export const schemaTypeSchema = {
  type: 'object',
  required: ['name', 'directory', 'localized', 'fields'],
  properties: schemaTypeProperties,
} as const;

/** `GET /schema` answer. */
export const schemaListSchema = {
  type: 'object',
  required: ['types', 'schemaHash'],
  properties: { types: { type: 'array', items: schemaTypeSchema }, schemaHash: { type: 'string' } },
} as const;

/** `GET /schema/{type}` answer: the type plus the hash in force. */
export const schemaTypeWithHashSchema = {
  type: 'object',
  required: ['name', 'directory', 'localized', 'fields', 'schemaHash'],
  properties: { ...schemaTypeProperties, schemaHash: { type: 'string' } },
} as const;

/** `GET /schema/{type}` path. */
export const schemaTypeParamsSchema = {
  type: 'object',
  required: ['type'],
  additionalProperties: false,
  properties: { type: { type: 'string', minLength: 1 } },
} as const;

/** `PUT /schema/sync` body; `resolvedSchema` is validated in depth by the service (core's validateResolvedSchema). */
export const syncSchemaBodySchema = {
  type: 'object',
  required: ['rawConfigSnapshot', 'resolvedSchema', 'schemaHash'],
  additionalProperties: false,
  properties: {
    rawConfigSnapshot: anyObject,
    resolvedSchema: anyObject,
    schemaHash: { type: 'string', minLength: 1 },
  },
} as const;

/** `PUT /schema/sync` answer. */
export const syncSchemaResultSchema = {
  type: 'object',
  required: ['synced', 'schemaHash', 'typesCount', 'types', 'syncedAt', 'syncedBy'],
  properties: {
    synced: { type: 'boolean' },
    schemaHash: { type: 'string' },
    typesCount: { type: 'integer' },
    types: { type: 'array', items: { type: 'string' } },
    syncedAt: { type: 'string', format: 'date-time' },
    syncedBy: { type: 'string' },
  },
} as const;
