/** JSON Schemas of `POST /api/v1/content/migrations` (decisions.md §4, docs/api.md "Content migrations"). */
import { FIELD_NAME_PATTERN, MAX_FIELD_DEPTH, TYPE_NAME_PATTERN } from '@cms/core';

/** Most operations one migration may hold. */
export const MAX_MIGRATION_OPERATIONS = 50;
/** Documents shown before and after in the answer's `sample`. */
export const MIGRATION_SAMPLE_SIZE = 5;
/** Longest migration name. */
export const MAX_MIGRATION_NAME_LENGTH = 128;

const segment = FIELD_NAME_PATTERN.source.slice(1, -1);

/**
 * A dot path of field names (`seo.description`), as deep as a schema may nest fields. Field names
 * never hold a dot (schema sync rejects them), and never start with `_`, so no path reaches `__proto__`.
 */
export const FIELD_PATH_PATTERN = `^${segment}(?:\\.${segment}){0,${MAX_FIELD_DEPTH - 1}}$`;

/** Migration names: a letter or digit, then letters, digits, `.`, `_` or `-` (`2024-06-rename-subtitle`). */
export const MIGRATION_NAME_PATTERN = `^[A-Za-z0-9][A-Za-z0-9._-]{0,${MAX_MIGRATION_NAME_LENGTH - 1}}$`;

const fieldPath = { type: 'string', pattern: FIELD_PATH_PATTERN } as const;

const moveSchema = (op: 'rename' | 'copy') =>
  ({
    type: 'object',
    required: ['op', 'from', 'to'],
    additionalProperties: false,
    properties: {
      op: { const: op },
      from: fieldPath,
      to: fieldPath,
      overwrite: { type: 'boolean', default: false },
    },
  }) as const;

const setSchema = {
  type: 'object',
  required: ['op', 'field', 'value'],
  additionalProperties: false,
  properties: {
    op: { const: 'set' },
    field: fieldPath,
    value: {},
    onlyIfMissing: { type: 'boolean', default: false },
  },
} as const;

const removeSchema = {
  type: 'object',
  required: ['op', 'field'],
  additionalProperties: false,
  properties: { op: { const: 'remove' }, field: fieldPath },
} as const;

const operationSchemas = {
  rename: moveSchema('rename'),
  copy: moveSchema('copy'),
  set: setSchema,
  remove: removeSchema,
};

/**
 * One operation, chosen by `op`. `if`/`then` per op rather than `oneOf`: an unknown op is one error
 * on `op`, and a known op's errors are its own, not those of every other branch.
 */
export const migrationOperationSchema = {
  type: 'object',
  required: ['op'],
  properties: { op: { type: 'string', enum: Object.keys(operationSchemas) } },
  allOf: Object.entries(operationSchemas).map(([op, schema]) => ({
    if: { type: 'object', required: ['op'], properties: { op: { const: op } } },
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword.
    then: schema,
  })),
} as const;

/** Body: the migration's name (applies once per environment), the type, the operations, dry run or not. */
export const migrationBodySchema = {
  type: 'object',
  required: ['name', 'type', 'operations'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: MIGRATION_NAME_PATTERN },
    type: { type: 'string', pattern: TYPE_NAME_PATTERN.source },
    operations: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_MIGRATION_OPERATIONS,
      items: migrationOperationSchema,
    },
    dryRun: { type: 'boolean', default: false },
  },
} as const;

const anyObject = { type: 'object', additionalProperties: true } as const;

/** One document of the sample: its frontmatter before and after the operations. */
export const migrationSampleItemSchema = {
  type: 'object',
  required: ['documentId', 'path', 'locale', 'before', 'after'],
  properties: {
    documentId: { type: 'string', format: 'uuid' },
    path: { type: 'string' },
    locale: { type: 'string' },
    before: anyObject,
    after: anyObject,
  },
} as const;

/** Answer: documents of the type, those whose frontmatter changes, whether it was written, a sample. */
export const migrationResultSchema = {
  type: 'object',
  required: ['name', 'type', 'matched', 'changed', 'applied', 'sample'],
  properties: {
    name: { type: 'string' },
    type: { type: 'string' },
    matched: { type: 'integer' },
    changed: { type: 'integer' },
    applied: { type: 'boolean' },
    sample: { type: 'array', items: migrationSampleItemSchema },
  },
} as const;
