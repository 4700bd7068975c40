/**
 * `POST /api/v1/content/migrations` and `GET /api/v1/content/migrations/{name}` (decisions.md §4, docs/api.md
 * "Content migrations").
 */
import { type Static, Type } from 'typebox';
import { FIELD_NAME_PATTERN, MAX_FIELD_DEPTH } from '../schema/field-definition.js';
import { TYPE_NAME_PATTERN } from '../schema/schema-definition.js';
import { defineRoute } from './define-route.js';
import { AnyObject, StringEnum, Timestamp, Uuid, WithDefault } from './shapes.js';

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

const FieldPath = Type.String({ pattern: FIELD_PATH_PATTERN });

const moveOperation = <const Op extends 'rename' | 'copy'>(op: Op) =>
  Type.Object(
    { op: Type.Literal(op), from: FieldPath, to: FieldPath, overwrite: WithDefault(Type.Boolean(), false) },
    { additionalProperties: false },
  );

/** Moves a value to another path; `overwrite` allows replacing a value already there. */
export const RenameOperationSchema = moveOperation('rename');
/** Copies a value (deeply) to another path; `overwrite` allows replacing a value already there. */
export const CopyOperationSchema = moveOperation('copy');
/** Sets a value; `onlyIfMissing` leaves documents that already have the field (null counts as a value). */
export const SetOperationSchema = Type.Object(
  {
    op: Type.Literal('set'),
    field: FieldPath,
    value: Type.Unknown(),
    onlyIfMissing: WithDefault(Type.Boolean(), false),
  },
  { additionalProperties: false },
);
/** Removes a field (nothing happens where it is absent). */
export const RemoveOperationSchema = Type.Object(
  { op: Type.Literal('remove'), field: FieldPath },
  { additionalProperties: false },
);

export type RenameOperation = Static<typeof RenameOperationSchema>;
export type CopyOperation = Static<typeof CopyOperationSchema>;
export type SetOperation = Static<typeof SetOperationSchema>;
export type RemoveOperation = Static<typeof RemoveOperationSchema>;
/** One step of a migration. */
export type MigrationOperation = RenameOperation | CopyOperation | SetOperation | RemoveOperation;

const operationSchemas = {
  rename: RenameOperationSchema,
  copy: CopyOperationSchema,
  set: SetOperationSchema,
  remove: RemoveOperationSchema,
};

/**
 * One operation, chosen by `op`. `if`/`then` per op rather than `oneOf`: an unknown op is one error
 * on `op`, and a known op's errors are its own, not those of every other branch.
 */
export const MigrationOperationSchema = Type.Unsafe<MigrationOperation>({
  type: 'object',
  required: ['op'],
  properties: { op: { type: 'string', enum: Object.keys(operationSchemas) } },
  allOf: Object.entries(operationSchemas).map(([op, schema]) => ({
    if: { type: 'object', required: ['op'], properties: { op: { const: op } } },
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword.
    then: schema,
  })),
});

/** Body: the migration's name (applies once per environment), the type, the operations, dry run or not. */
export const MigrationBodySchema = Type.Object(
  {
    name: Type.String({ pattern: MIGRATION_NAME_PATTERN }),
    type: Type.String({ pattern: TYPE_NAME_PATTERN.source }),
    operations: Type.Array(MigrationOperationSchema, { minItems: 1, maxItems: MAX_MIGRATION_OPERATIONS }),
    dryRun: WithDefault(Type.Boolean(), false),
  },
  { additionalProperties: false },
);
export type MigrationBody = Static<typeof MigrationBodySchema>;

/** One document of the sample: its frontmatter before and after the operations. */
export const MigrationSampleItemSchema = Type.Object({
  documentId: Uuid,
  path: Type.String(),
  locale: Type.String(),
  before: AnyObject,
  after: AnyObject,
});

/** Answer: documents of the type, those whose frontmatter changes, whether it was written, a sample. */
export const MigrationResultSchema = Type.Object({
  name: Type.String(),
  type: Type.String(),
  matched: Type.Integer(),
  changed: Type.Integer(),
  applied: Type.Boolean(),
  sample: Type.Array(MigrationSampleItemSchema),
});
export type MigrationResult = Static<typeof MigrationResultSchema>;

export const contentMigrateRoute = defineRoute({
  id: 'content.migrate',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/content/migrations',
  summary: 'Apply (or dry-run) a named migration to the frontmatter of every document of a type',
  target: 'environment',
  request: { body: MigrationBodySchema },
  response: { status: 200, envelope: 'single', schema: MigrationResultSchema },
  errors: ['CONFLICT', 'SCHEMA_NOT_FOUND'],
});

/** A migration applied in an environment, as recorded when its transaction committed. */
export const AppliedMigrationSchema = Type.Object({
  name: Type.String(),
  type: Type.String(),
  /** The operations as they were applied (defaults filled in). */
  operations: Type.Array(AnyObject),
  matched: Type.Integer(),
  changed: Type.Integer(),
  appliedAt: Timestamp,
  appliedBy: Type.String(),
});
export type AppliedMigration = Static<typeof AppliedMigrationSchema>;

/**
 * Whether a named migration was applied here, and its counts: what a client whose `POST` got no answer
 * in time asks until the migration's transaction commits (`NOT_FOUND` until then, and for a name never
 * applied or rolled back).
 */
export const contentMigrationGetRoute = defineRoute({
  id: 'content.migrations.get',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/content/migrations/{name}',
  summary: 'Read a migration applied in this environment, by name (NOT_FOUND until it has committed)',
  target: 'environment',
  request: { params: Type.Object({ name: Type.String({ pattern: MIGRATION_NAME_PATTERN }) }) },
  response: { status: 200, envelope: 'single', schema: AppliedMigrationSchema },
  errors: ['NOT_FOUND'],
});

/** Operation names, for clients that build migrations. */
export const MigrationOpSchema = StringEnum(['rename', 'copy', 'set', 'remove']);
