import {
  type ActionInput,
  type ActionResult,
  type BatchOperation,
  type BatchResult,
  CmsError,
  type ContentBatchResult,
  catalogCode,
  type contentBatchRoute,
} from '@cms/core';
import { documentChanges } from '../../../audit/audit-changes.js';
import { noteAuditChanges, noteAuditDocuments } from '../../../audit/audit-scope.js';
import type { EnvironmentContext } from '../../../http/request-context.js';
import type { BulkStatistics } from '../../../storage/bulk-statistics.js';
import { type Db, type Queryable, withTransaction } from '../../../storage/db.js';
import type { DocumentRow } from '../../../storage/repositories/document-row.js';
import {
  findReferenceTargets,
  findTakenPaths,
  insertDocuments,
  type NewDocument,
} from '../../../storage/repositories/documents.repository.js';
import type { EffectiveSchema, SchemaReader } from '../schema/schema-reader.js';
import { actorOf } from './document-context.js';
import { type CheckedCreate, type CreateFields, checkCreate, newDocumentOf } from './document-create.js';
import { eventDocument, noteAuditDocument } from './document-events.js';
import { assertSchemaHash, referencedIds, referenceProblemsIn } from './document-validation.js';
import { toDocumentView } from './document-view.js';
import { createDocumentsService, type DocumentsDeps, type DocumentsService } from './documents.service.js';

type Batch = typeof contentBatchRoute;

/** What the batch service needs: the documents service's dependencies, and whom to tell of bulk writes. */
export type DocumentsBatchDeps = DocumentsDeps & { statistics?: BulkStatistics };

/**
 * Many draft creates and updates in one transaction (one commit instead of one per document): an
 * operation that fails (stale revision, path taken, invalid frontmatter, unknown document) is refused
 * alone and answered with the code the single route would give, and the others are kept. Answers,
 * stored rows and events are those of `POST /content` and `PUT /content/{documentId}` run in
 * operation order. Creates that are checked free beforehand (set-based: one query for the paths, one
 * for the references of the whole batch) are inserted together, with one statement for their rows
 * and one for their events; every other operation runs alone through the single routes' service
 * inside the batch's transaction. A schema hash that does not match refuses the whole batch (409)
 * before anything is written. Errors that are not the API's (a bug, a lost connection) fail the
 * whole request and roll everything back.
 */
export class DocumentsBatchService {
  constructor(private readonly deps: DocumentsBatchDeps) {}

  /** `POST /content/batch`: the operations in order, in one transaction. */
  async apply(ctx: EnvironmentContext, { body, headers }: ActionInput<Batch>): Promise<ActionResult<Batch>> {
    const schemaHash = headers['x-cms-schema-hash'];
    const answer = await withTransaction(this.deps.db, (tx) => this.applyIn(tx, ctx, body.operations, schemaHash));
    // Committed: a push of many batches leaves the planner's statistics fresh (bulk-statistics.ts).
    this.deps.statistics?.noteBulkWrite(['documents'], answer.applied);
    return answer;
  }

  /** The batch inside its transaction; PostgreSQL may run it again after a deadlock. */
  private async applyIn(
    tx: Queryable,
    ctx: EnvironmentContext,
    operations: readonly BatchOperation[],
    schemaHash: string | undefined,
  ): Promise<ContentBatchResult> {
    const { deps } = this;
    const schema = await deps.schemas.load(tx, ctx.target);
    assertSchemaHash(schema, schemaHash);
    // The same service on this transaction, checking every operation against the schema whose hash
    // was just checked: it only hands `db` to `withTransaction`, which joins it.
    const documents = createDocumentsService({
      ...deps,
      schemas: pinnedSchema(deps.schemas, schema),
      db: tx as unknown as Db,
    });
    const fast = await planFastCreates(deps, tx, ctx, schema, operations);
    // Built afresh on every attempt.
    const results: BatchResult[] = [];
    // Creates checked free, waiting to be inserted together before the next operation runs.
    let pending: PendingCreate[] = [];
    const flush = async () => {
      if (pending.length > 0) results.push(...(await insertPending(deps, tx, ctx, documents, pending, schemaHash)));
      pending = [];
    };
    for (const [index, operation] of operations.entries()) {
      const planned = fast.get(index);
      if (planned) {
        // Stamped now, as `documents.create` would be: the clock is read in operation order.
        const doc = newDocumentOf(ctx, planned.input, planned.checked, { groupId: undefined, at: deps.clock() });
        pending.push({ operation: planned.operation, doc });
        continue;
      }
      await flush();
      results.push(await runOne(tx, ctx, documents, operation, schemaHash));
    }
    await flush();
    const applied = results.filter((r) => r.ok).length;
    // The entry names the last document written; each document written is in its activity
    // (docs/audit.md "A document's activity"), and the changes say what the batch did as a whole.
    const written = results.flatMap((r) => (r.ok ? [r.document.documentId] : []));
    noteAuditDocuments(written);
    noteAuditChanges({ batch: { operations: operations.length, applied, failed: results.length - applied } });
    return { results, applied, failed: results.length - applied };
  }
}

/**
 * The schema reader of one batch: `load` answers the schema the batch checked, one lookup per
 * batch instead of one per document, and one schema for the whole batch.
 */
function pinnedSchema(schemas: SchemaReader, schema: EffectiveSchema | null): SchemaReader {
  return {
    find: (t) => schemas.find(t),
    load: async () => schema,
    validatorFor: (s, type) => schemas.validatorFor(s, type),
    invalidate: () => schemas.invalidate(),
  };
}

type CreateOperation = Extract<BatchOperation, { op: 'create' }>;

/** A create checked free (valid, references found, path unused), its row built. */
interface PendingCreate {
  operation: CreateOperation;
  doc: NewDocument;
}

/**
 * The creates of a batch that can be inserted without a savepoint: each passes the checks that need
 * no database, its references exist (one query for the whole batch), it joins no translation group,
 * and its path and locale are held neither by a document here (one query) nor by an earlier create
 * of the batch. Any other operation runs alone, exactly as before. A batch cannot make a reference
 * valid or a path free for a later create: ids are the server's, and updates change neither type,
 * deletion nor path.
 */
async function planFastCreates(
  deps: DocumentsDeps,
  tx: Queryable,
  ctx: EnvironmentContext,
  schema: EffectiveSchema | null,
  operations: readonly BatchOperation[],
): Promise<Map<number, { operation: CreateOperation; input: CreateFields; checked: CheckedCreate }>> {
  const candidates: { index: number; operation: CreateOperation; input: CreateFields; checked: CheckedCreate }[] = [];
  // The path and locale of every create that may succeed (one refused before any write takes none):
  // a later create of the same runs alone, after it, and gets the answer the single route would.
  const earlier = new Set<string>();
  const keyOf = (path: string, locale: string) => `${locale}\u0000${path}`;
  for (const [index, operation] of operations.entries()) {
    if (operation.op !== 'create') continue;
    const input = createFieldsOf(operation);
    let checked: CheckedCreate;
    try {
      checked = checkCreate(deps.schemas, schema, input);
    } catch (error) {
      if (error instanceof CmsError) continue;
      throw error;
    }
    const key = keyOf(input.path, checked.locale);
    if (!operation.translationGroupId && !earlier.has(key)) candidates.push({ index, operation, input, checked });
    earlier.add(key);
  }
  const ids = [...new Set(candidates.flatMap((c) => referencedIds(c.checked.type, c.checked.frontmatter)))];
  const found = new Map((await findReferenceTargets(tx, ctx.target, ids)).map((row) => [row.id, row]));
  const taken = new Set(
    (await findTakenPaths(tx, ctx.target, [...new Set(candidates.map((c) => c.input.path))])).map((row) =>
      keyOf(row.path, row.locale),
    ),
  );
  const planned = new Map<number, { operation: CreateOperation; input: CreateFields; checked: CheckedCreate }>();
  for (const candidate of candidates) {
    if (taken.has(keyOf(candidate.input.path, candidate.checked.locale))) continue;
    const problems = referenceProblemsIn(candidate.checked.type, candidate.checked.frontmatter, found);
    if (Object.keys(problems).length > 0) continue;
    planned.set(candidate.index, candidate);
  }
  return planned;
}

/** The fields of a create operation as `checkCreate` and `documents.create` take them. */
function createFieldsOf(operation: CreateOperation): CreateFields {
  return { ...withoutOp(operation), format: operation.format ?? 'md', body: operation.body ?? '' };
}

/**
 * One operation alone, as `POST /content` or `PUT /content/{documentId}` would run it. A create may
 * fail in SQL (a path taken), which aborts the transaction: it runs behind a savepoint. An update
 * refuses (stale revision, invalid frontmatter, unknown document) before its first write, so it
 * needs none. Should a statement of an update fail anyway, the next one fails too and the whole
 * batch rolls back.
 */
async function runOne(
  tx: Queryable,
  ctx: EnvironmentContext,
  documents: DocumentsService,
  operation: BatchOperation,
  schemaHash: string | undefined,
): Promise<BatchResult> {
  const savepoint = operation.op === 'create';
  if (savepoint) await tx.query('savepoint cms_batch_create');
  try {
    const document =
      operation.op === 'create'
        ? await documents.create(ctx, { ...createFieldsOf(operation), schemaHash })
        : await documents.update(ctx, { ...withoutOp(operation), schemaHash });
    if (savepoint) await tx.query('release savepoint cms_batch_create');
    return {
      ok: true,
      status: operation.op === 'create' ? 201 : 200,
      document,
    };
  } catch (error) {
    if (!(error instanceof CmsError)) throw error;
    if (savepoint) {
      await tx.query('rollback to savepoint cms_batch_create');
      await tx.query('release savepoint cms_batch_create');
    }
    return failure(error);
  }
}

function failure(error: CmsError): BatchResult {
  return {
    ok: false,
    status: error.status,
    error: { code: catalogCode(error), message: error.message, details: { ...error.details } },
  };
}

/**
 * Inserts creates checked free with one statement and records their events with one more, in
 * operation order. Should the insert fail anyway (another request took a path since the check),
 * it is undone and each create runs alone, giving exactly the answers of the single route.
 */
async function insertPending(
  deps: DocumentsDeps,
  tx: Queryable,
  ctx: EnvironmentContext,
  documents: DocumentsService,
  pending: readonly PendingCreate[],
  schemaHash: string | undefined,
): Promise<BatchResult[]> {
  await tx.query('savepoint cms_batch_creates');
  let inserted: DocumentRow[];
  try {
    inserted = await insertDocuments(
      tx,
      ctx.target,
      pending.map((p) => p.doc),
    );
  } catch {
    await tx.query('rollback to savepoint cms_batch_creates');
    await tx.query('release savepoint cms_batch_creates');
    const results: BatchResult[] = [];
    for (const p of pending) results.push(await runOne(tx, ctx, documents, p.operation, schemaHash));
    return results;
  }
  await tx.query('release savepoint cms_batch_creates');
  const byId = new Map(inserted.map((row) => [row.id, row]));
  const rows = pending.map((p) => byId.get(p.doc.id) as DocumentRow);
  await deps.outbox.recordMany(
    tx,
    ctx.target,
    rows.map((row) => ({
      type: 'content.created' as const,
      actor: actorOf(ctx),
      document: eventDocument(row),
      publishedVersion: null,
    })),
  );
  return rows.map((row) => {
    // As `documents.create` notes them: the action's audit entry names the last document written.
    noteAuditDocument(row);
    noteAuditChanges(documentChanges(null, { frontmatter: row.draftFrontmatter, body: row.draftBody }));
    return {
      ok: true as const,
      status: 201,
      document: toDocumentView(row, { draft: true, target: ctx.target }),
    };
  });
}

function withoutOp<T extends { op: string }>(operation: T): Omit<T, 'op'> {
  const { op: _op, ...rest } = operation;
  return rest;
}
