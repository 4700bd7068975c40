import { randomUUID } from 'node:crypto';
import {
  type ActionInput,
  type ActionMethod,
  type AppliedMigration,
  CmsError,
  collectReferences,
  type contentMigrateRoute,
  type contentMigrationGetRoute,
  invalidInput,
  MIGRATION_SAMPLE_SIZE,
  type MigrationResult,
  notFound,
  type SchemaType,
} from '@cms/core';
import type { Clock } from '../../../clock.js';
import type { EnvironmentContext, Target } from '../../../http/request-context.js';
import { type Db, type Queryable, withTransaction } from '../../../storage/db.js';
import {
  type ContentMigrationRow,
  type DocumentCursor,
  findContentMigration,
  insertContentMigrationIfNew,
  listDocumentsOfTypeAfter,
  setContentMigrationCounts,
} from '../../../storage/repositories/content-migrations.repository.js';
import { type DocumentRow, sourceText } from '../../../storage/repositories/document-row.js';
import { findReferenceTargets, updateDraftIfRevision } from '../../../storage/repositories/documents.repository.js';
import { recordDocumentEvent } from '../documents/document-events.js';
import { sourceAfterWrite } from '../documents/document-source.js';
import { checkFrontmatter } from '../documents/document-validation.js';
import type { Outbox } from '../outbox.js';
import { requireSchemaType, type SchemaReader, type TypeInSchema } from '../schema/schema-reader.js';
import { applyOperations, isSameOrInside, type MigrationOperation } from './frontmatter-operations.js';

/** Documents read, changed and written per round trip: memory stays bounded however large the type. */
export const MIGRATION_BATCH_SIZE = 500;
/** Invalid documents named in a validation failure (all are counted). */
export const MAX_REPORTED_INVALID_DOCUMENTS = 20;

type Migrate = typeof contentMigrateRoute;
type GetMigration = typeof contentMigrationGetRoute;
type MigrationSampleItem = MigrationResult['sample'][number];

/** A document the migration would leave invalid, and why (keyed by JSON path). */
interface InvalidDocument {
  documentId: string;
  path: string;
  locale: string;
  fields: Record<string, string>;
}

/** A changed document that passed its schema: the frontmatter to store (defaults applied). */
interface PlannedChange {
  row: DocumentRow;
  frontmatter: Record<string, unknown>;
}

/** INVALID_INPUT unless every rename and copy moves a value to another place, outside its source. */
function assertOperationPaths(operations: readonly MigrationOperation[]): void {
  const problems: Record<string, string> = {};
  operations.forEach((operation, index) => {
    if (operation.op !== 'rename' && operation.op !== 'copy') return;
    if (isSameOrInside(operation.to, operation.from) || isSameOrInside(operation.from, operation.to)) {
      problems[`body.operations.${index}.to`] = 'must differ from `from` and neither may be inside the other';
    }
  });
  if (Object.keys(problems).length > 0) throw invalidInput(problems);
}

function alreadyApplied(existing: ContentMigrationRow, target: Target, dryRun: boolean): CmsError {
  const when = existing.appliedAt.toISOString();
  const consequence = dryRun ? 'applying it again would be refused' : 'it was not applied again';
  return new CmsError(
    'CONFLICT',
    `Migration "${existing.name}" was already applied to environment "${target.environmentName}" at ${when} (a name applies once): ${consequence}. Give a new migration a new name.`,
    {
      name: existing.name,
      type: existing.type,
      appliedAt: when,
      appliedBy: existing.appliedBy,
      matched: existing.matched,
      changed: existing.changed,
    },
  );
}

function invalidDocuments(
  invalid: { reported: InvalidDocument[]; count: number },
  type: string,
  matched: number,
): CmsError {
  const fields: Record<string, string> = {};
  for (const document of invalid.reported) {
    for (const [path, message] of Object.entries(document.fields))
      fields[`documents.${document.documentId}.${path}`] = message;
  }
  const [first] = invalid.reported;
  const example = first ? ` First: ${first.path} (${Object.entries(first.fields)[0]?.join(': ')}).` : '';
  return new CmsError(
    'INVALID_INPUT',
    `${invalid.count} of ${matched} "${type}" documents would not be valid after this migration, so nothing was written.${example} Change the operations (or fix those documents) and retry.`,
    { fields, documents: invalid.reported, invalidCount: invalid.count },
  );
}

/**
 * Reference problems of a batch of changed frontmatters, per document id: each reference must be a
 * non-deleted document of its target type here, as on every draft write (document-validation.ts),
 * with one query for the whole batch.
 */
async function referenceProblems(
  tx: Queryable,
  target: Target,
  type: SchemaType,
  changes: readonly PlannedChange[],
): Promise<Map<string, Record<string, string>>> {
  const references = changes.map((change) => ({ change, refs: collectReferences(type, change.frontmatter) }));
  const ids = [...new Set(references.flatMap(({ refs }) => refs.map((ref) => ref.documentId)))];
  const found = new Map((await findReferenceTargets(tx, target, ids)).map((row) => [row.id, row]));
  const problems = new Map<string, Record<string, string>>();
  for (const { change, refs } of references) {
    const fields: Record<string, string> = {};
    for (const ref of refs) {
      const row = found.get(ref.documentId);
      const wanted = `must reference a "${ref.targetType}" document`;
      if (!row) fields[ref.path] = `${wanted}: ${ref.documentId} does not exist in this environment`;
      else if (row.isDeleted) fields[ref.path] = `${wanted}: ${ref.documentId} is deleted`;
      else if (row.type !== ref.targetType)
        fields[ref.path] = `${wanted}: ${ref.documentId} is a "${row.type}" document`;
    }
    if (Object.keys(fields).length > 0) problems.set(change.row.id, fields);
  }
  return problems;
}

/** Dependencies of the content migrations service. */
export interface ContentMigrationsDeps {
  db: Db;
  outbox: Outbox;
  schemas: SchemaReader;
  clock: Clock;
}

/** The route this service answers, declared against it. */
interface ContentMigrationRoutes {
  migrate: ActionMethod<Migrate, EnvironmentContext>;
  get: ActionMethod<GetMigration, EnvironmentContext>;
}

/**
 * Content migrations (decisions.md §4): ordered operations on the draft frontmatter of every live
 * document of a type, checked against the schema in force, applied in one transaction with the
 * events a draft update records, once per (environment, name). Published versions are never touched.
 */
export class ContentMigrationsService implements ContentMigrationRoutes {
  constructor(private readonly deps: ContentMigrationsDeps) {}

  /** The migration of this name applied here: NOT_FOUND until its transaction commits. */
  async get(ctx: EnvironmentContext, { params }: ActionInput<GetMigration>): Promise<AppliedMigration> {
    const row = await findContentMigration(this.deps.db, ctx.target, params.name);
    if (!row) throw notFound(`Migration "${params.name}" in environment "${ctx.target.environmentName}"`);
    return {
      name: row.name,
      type: row.type,
      operations: row.operations as AppliedMigration['operations'],
      matched: row.matched,
      changed: row.changed,
      appliedAt: row.appliedAt.toISOString(),
      appliedBy: row.appliedBy,
    };
  }

  /** Plans (dry run) or applies a named migration to the target environment. */
  async migrate(ctx: EnvironmentContext, { body: input }: ActionInput<Migrate>): Promise<MigrationResult> {
    const { target } = ctx;
    assertOperationPaths(input.operations);
    const apply = !input.dryRun;
    // Runs again from the start when PostgreSQL aborts it on a deadlock: only the database is touched.
    return withTransaction(this.deps.db, async (tx) => {
      const at = this.deps.clock();
      const typed = requireSchemaType(await this.deps.schemas.load(tx, target), input.type);
      // Applying claims the name first: a concurrent application of it waits here, then finds it taken.
      const record = apply
        ? await insertContentMigrationIfNew(tx, target, {
            id: randomUUID(),
            name: input.name,
            type: input.type,
            operations: input.operations,
            by: ctx.principal.id,
            at,
          })
        : null;
      if (!record) {
        const existing = await findContentMigration(tx, target, input.name);
        if (existing) throw alreadyApplied(existing, target, !apply);
        // Only a dry run gets here: nothing of that name was applied.
        if (apply) throw new Error(`migration "${input.name}" neither inserted nor found`);
      }

      let after: DocumentCursor | null = null;
      let matched = 0;
      let changed = 0;
      const sample: MigrationSampleItem[] = [];
      const invalid = { reported: [] as InvalidDocument[], count: 0 };
      for (;;) {
        const rows = await listDocumentsOfTypeAfter(tx, target, {
          type: input.type,
          after,
          limit: MIGRATION_BATCH_SIZE,
          forUpdate: apply,
        });
        matched += rows.length;
        const batch = await this.planBatch(tx, target, typed, rows, input.operations);
        invalid.count += batch.invalid.length;
        invalid.reported.push(...batch.invalid.slice(0, MAX_REPORTED_INVALID_DOCUMENTS - invalid.reported.length));
        changed += batch.changes.length;
        for (const change of batch.changes) {
          if (sample.length < MIGRATION_SAMPLE_SIZE) {
            const { row } = change;
            sample.push({
              documentId: row.id,
              path: row.path,
              locale: row.locale,
              before: row.draftFrontmatter,
              after: change.frontmatter,
            });
          }
          // Once any document fails, the transaction is rolled back: stop writing, keep validating.
          if (apply && invalid.count === 0) await this.write(tx, ctx, typed, change, at);
        }
        const last = rows[rows.length - 1];
        if (!last || rows.length < MIGRATION_BATCH_SIZE) break;
        after = { path: last.path, id: last.id };
      }
      if (invalid.count > 0) throw invalidDocuments(invalid, input.type, matched);
      if (record) await setContentMigrationCounts(tx, target, { id: record.id, matched, changed });
      return { name: input.name, type: input.type, matched, changed, applied: apply, sample };
    });
  }

  /** Computes one batch: the changes that pass their schema, and the documents that would not. */
  private async planBatch(
    tx: Queryable,
    target: Target,
    typed: TypeInSchema,
    rows: readonly DocumentRow[],
    operations: readonly MigrationOperation[],
  ): Promise<{ changes: PlannedChange[]; invalid: InvalidDocument[] }> {
    const candidates: PlannedChange[] = [];
    const invalid: InvalidDocument[] = [];
    const fail = (row: DocumentRow, fields: Record<string, string>) =>
      invalid.push({ documentId: row.id, path: row.path, locale: row.locale, fields });
    for (const row of rows) {
      const outcome = applyOperations(row.draftFrontmatter, operations);
      if (!outcome.ok) fail(row, outcome.fields);
      else if (outcome.changed) {
        const checked = checkFrontmatter(this.deps.schemas, typed, outcome.frontmatter);
        if (checked.fields) fail(row, checked.fields);
        else candidates.push({ row, frontmatter: checked.value });
      }
    }
    const problems = await referenceProblems(tx, target, typed.type, candidates);
    const changes: PlannedChange[] = [];
    for (const change of candidates) {
      const fields = problems.get(change.row.id);
      if (fields) fail(change.row, fields);
      else changes.push(change);
    }
    return { changes, invalid };
  }

  /**
   * Writes one change as `PUT /content/{id}` would: next draft revision, unpublished changes,
   * `content.updated`, and the kept source text patched in the lines of the keys that changed.
   */
  private async write(
    tx: Queryable,
    ctx: EnvironmentContext,
    typed: TypeInSchema,
    change: PlannedChange,
    at: Date,
  ): Promise<void> {
    const { row } = change;
    const updated = await updateDraftIfRevision(tx, ctx.target, {
      id: row.id,
      revision: row.draftRevision,
      frontmatter: change.frontmatter,
      body: row.draftBody,
      source: sourceAfterWrite({
        sent: undefined,
        previous: sourceText(row.draftSource),
        frontmatter: change.frontmatter,
        body: row.draftBody,
        fields: typed.type.fields,
      }),
      by: ctx.principal.id,
      at,
    });
    // The batch read locked the row, so nobody can have moved its revision.
    if (!updated) throw new Error(`migrated document ${row.id} changed under its row lock`);
    await recordDocumentEvent(this.deps.outbox, tx, ctx, 'content.updated', updated);
  }
}
