import { type BatchOperation, type BatchResult, CmsError, type ContentBatchResult } from '@cms/core';
import type { EnvironmentContext } from '../../../http/request-context.js';
import { type Db, withTransaction } from '../../../storage/db.js';
import type { SchemaReader } from '../schema/schema-reader.js';
import { assertSchemaHash } from './document-validation.js';
import { createDocumentsService, type DocumentsDeps } from './documents.service.js';

/** `POST /content/batch` body plus the `X-CMS-Schema-Hash` header. */
export interface ContentBatchInput {
  operations: readonly BatchOperation[];
  schemaHash: string | undefined;
}

/**
 * Many draft creates and updates in one transaction (one commit instead of one per document): an
 * operation that fails (stale revision, path taken, invalid frontmatter, unknown document) is refused alone and answered with the code the single route
 * would give, and the others are kept. Each operation runs exactly as `POST /content` or
 * `PUT /content/{documentId}` does (same validation, events and revision check), since it calls the
 * same service inside the batch's transaction. A schema hash that does not match refuses the whole
 * batch (409) before anything is written. Errors that are not the API's (a bug, a lost connection)
 * fail the whole request and roll everything back.
 */
export function createDocumentsBatchService(deps: DocumentsDeps) {
  return {
    async apply(ctx: EnvironmentContext, input: ContentBatchInput): Promise<ContentBatchResult> {
      const { target } = ctx;
      return withTransaction(deps.db, async (tx) => {
        const schema = await deps.schemas.load(tx, target);
        assertSchemaHash(schema, input.schemaHash);
        // Every operation is checked against the schema whose hash was just checked: one lookup per
        // batch instead of one per document, and one schema for the whole batch.
        const schemas: SchemaReader = {
          find: (t) => deps.schemas.find(t),
          load: async () => schema,
          validatorFor: (s, type) => deps.schemas.validatorFor(s, type),
          invalidate: () => deps.schemas.invalidate(),
        };
        // The same service on this transaction: it only hands `db` to `withTransaction`, which joins it.
        const documents = createDocumentsService({ ...deps, schemas, db: tx as unknown as Db });
        // Built afresh on every attempt: PostgreSQL may run this function again after a deadlock.
        const results: BatchResult[] = [];
        for (const operation of input.operations) {
          // A create may fail in SQL (a path taken), which aborts the transaction: it runs behind a
          // savepoint. An update refuses (stale revision, invalid frontmatter, unknown document)
          // before its first write, so it needs none: two round trips fewer per document. Should a
          // statement of an update fail anyway, the next one fails too and the whole batch rolls back.
          const savepoint = operation.op === 'create';
          if (savepoint) await tx.query('savepoint cms_batch_create');
          try {
            const document =
              operation.op === 'create'
                ? await documents.create(ctx, {
                    ...withoutOp(operation),
                    format: operation.format ?? 'md',
                    body: operation.body ?? '',
                    schemaHash: input.schemaHash,
                  })
                : await documents.update(ctx, { ...withoutOp(operation), schemaHash: input.schemaHash });
            if (savepoint) await tx.query('release savepoint cms_batch_create');
            results.push({
              ok: true,
              status: operation.op === 'create' ? 201 : 200,
              document: document as unknown as Extract<BatchResult, { ok: true }>['document'],
            });
          } catch (error) {
            if (!(error instanceof CmsError)) throw error;
            if (savepoint) {
              await tx.query('rollback to savepoint cms_batch_create');
              await tx.query('release savepoint cms_batch_create');
            }
            results.push({
              ok: false,
              status: error.status,
              error: { code: error.code, message: error.message, details: { ...error.details } },
            });
          }
        }
        const applied = results.filter((r) => r.ok).length;
        return { results, applied, failed: results.length - applied };
      });
    },
  };
}

function withoutOp<T extends { op: string }>(operation: T): Omit<T, 'op'> {
  const { op: _op, ...rest } = operation;
  return rest;
}

/** The batch service's type, for the action factory. */
export type DocumentsBatchService = ReturnType<typeof createDocumentsBatchService>;
