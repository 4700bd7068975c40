import { randomUUID } from 'node:crypto';
import {
  type ActionInput,
  CmsError,
  type contentCreateRoute,
  type contentUpdateRoute,
  type Document,
  invalidInput,
} from '@cms/core';
import { documentChanges } from '../../../audit/audit-changes.js';
import { noteAuditChanges } from '../../../audit/audit-scope.js';
import type { Clock } from '../../../clock.js';
import type { EnvironmentContext, Target } from '../../../http/request-context.js';
import { type Db, type Queryable, withTransaction } from '../../../storage/db.js';
import { sourceText } from '../../../storage/repositories/document-row.js';
import {
  findTranslationGroupType,
  insertDocument,
  listPathsStartingWith,
  updateDraftIfRevision,
} from '../../../storage/repositories/documents.repository.js';
import type { Outbox } from '../outbox.js';
import { requireSchemaType, type SchemaReader } from '../schema/schema-reader.js';
import { checkCreate, newDocumentOf } from './document-create.js';
import { recordDocumentEvent } from './document-events.js';
import { getLiveDocumentForChange } from './document-lookup.js';
import { sourceAfterWrite } from './document-source.js';
import { assertReferences, assertSchemaHash, validateDraft } from './document-validation.js';
import { toDocumentView } from './document-view.js';
import { COPY_SUFFIX, firstFreeCopyPath, pathProblem } from './path-rules.js';

/** What the document services need: storage, the outbox, the schema in force and the time. */
export interface DocumentsDeps {
  db: Db;
  outbox: Outbox;
  schemas: SchemaReader;
  clock: Clock;
}

/** `POST /content` body as validated (core's contract) plus the `X-CMS-Schema-Hash` header. */
export type CreateDocumentInput = ActionInput<typeof contentCreateRoute>['body'] & {
  schemaHash: string | undefined;
  /** `X-CMS-Locale`: the locale of a localized type when the body names none (the body wins). */
  localeHeader?: string | undefined;
};

/** `PUT /content/{documentId}` body as validated (core's contract), its id and the `X-CMS-Schema-Hash` header. */
export type UpdateDocumentInput = ActionInput<typeof contentUpdateRoute>['body'] & {
  documentId: string;
  schemaHash: string | undefined;
};

/** `POST /content/{documentId}/duplicate`: the source and, optionally, the copy's path. */
export interface DuplicateDocumentInput {
  documentId: string;
  path?: string;
}

/** Throws INVALID_INPUT unless a group exists here and holds documents of `type`. */
async function assertJoinableGroup(tx: Queryable, target: Target, groupId: string, type: string): Promise<void> {
  const groupType = await findTranslationGroupType(tx, target, groupId);
  if (groupType === null) {
    throw invalidInput({ translationGroupId: 'no document of this environment belongs to this translation group' });
  }
  if (groupType !== type) {
    throw invalidInput({
      translationGroupId: `the group holds "${groupType}" documents: a locale variant must have the same type`,
    });
  }
}

/** Creating and editing drafts: create, update, duplicate (interface.md "States and transitions"). */
export function createDocumentsService(deps: DocumentsDeps) {
  return {
    /** Creates a draft-only document (`version` 0, `draftRevision` 1) and records `content.created`. */
    async create(ctx: EnvironmentContext, input: CreateDocumentInput): Promise<Document> {
      const { target } = ctx;
      return withTransaction(deps.db, async (tx) => {
        const schema = await deps.schemas.load(tx, target);
        assertSchemaHash(schema, input.schemaHash);
        const checked = checkCreate(deps.schemas, schema, input);
        await assertReferences(tx, target, checked.type, checked.frontmatter);
        const groupId = input.translationGroupId?.toLowerCase();
        if (groupId) await assertJoinableGroup(tx, target, groupId, checked.type.name);
        const row = await insertDocument(tx, target, newDocumentOf(ctx, input, checked, { groupId, at: deps.clock() }));
        await recordDocumentEvent(deps.outbox, tx, ctx, 'content.created', row);
        noteAuditChanges(documentChanges(null, { frontmatter: row.draftFrontmatter, body: row.draftBody }));
        return toDocumentView(row, { draft: true, target });
      });
    },

    /** Replaces the draft (complete frontmatter and body) unless `draftRevision` is stale. */
    async update(ctx: EnvironmentContext, input: UpdateDocumentInput): Promise<Document> {
      const { target } = ctx;
      return withTransaction(deps.db, async (tx) => {
        const current = await getLiveDocumentForChange(tx, target, input.documentId);
        const schema = await deps.schemas.load(tx, target);
        assertSchemaHash(schema, input.schemaHash);
        if (current.draftRevision > input.draftRevision)
          throw revisionConflict(current.draftRevision, input.draftRevision);
        const typed = requireSchemaType(schema, current.type);
        const frontmatter = await validateDraft(deps, tx, { ...typed, target }, input.frontmatter);
        const row = await updateDraftIfRevision(tx, target, {
          id: current.id,
          revision: input.draftRevision,
          frontmatter,
          body: input.body,
          source: sourceAfterWrite({
            sent: input.source,
            previous: sourceText(current.draftSource),
            frontmatter,
            body: input.body,
            fields: typed.type.fields,
          }),
          by: ctx.principal.id,
          at: deps.clock(),
        });
        // The row is locked above, so only a change of locking strategy could get here.
        if (!row) throw revisionConflict(current.draftRevision + 1, input.draftRevision);
        await recordDocumentEvent(deps.outbox, tx, ctx, 'content.updated', row);
        noteAuditChanges(
          documentChanges(
            { frontmatter: current.draftFrontmatter, body: current.draftBody },
            { frontmatter: row.draftFrontmatter, body: row.draftBody },
          ),
        );
        return toDocumentView(row, { draft: true, target });
      });
    },

    /**
     * Copies a document's draft into a new draft-only document with a new id, a new translation
     * group and a new path: the one given, else the first free of `<path>-copy`, `<path>-copy-2`, ...
     */
    async duplicate(ctx: EnvironmentContext, input: DuplicateDocumentInput): Promise<Document> {
      const { target } = ctx;
      return withTransaction(deps.db, async (tx) => {
        const source = await getLiveDocumentForChange(tx, target, input.documentId);
        let path = input.path;
        if (path === undefined) {
          const taken = await listPathsStartingWith(tx, target, {
            prefix: `${source.path}${COPY_SUFFIX}`,
            locale: source.locale,
          });
          path = firstFreeCopyPath(source.path, new Set(taken));
        }
        const badPath = pathProblem(path);
        if (badPath) throw invalidInput({ path: badPath });
        const row = await insertDocument(tx, target, {
          id: randomUUID(),
          translationGroupId: randomUUID(),
          type: source.type,
          path,
          locale: source.locale,
          format: source.format,
          frontmatter: source.draftFrontmatter,
          body: source.draftBody,
          source: sourceText(source.draftSource) ?? null,
          by: ctx.principal.id,
          at: deps.clock(),
        });
        await recordDocumentEvent(deps.outbox, tx, ctx, 'content.created', row);
        return toDocumentView(row, { draft: true, target });
      });
    },
  };
}

/** CONFLICT: the server's draft moved past the revision the client last fetched; details carry the server's. */
function revisionConflict(serverRevision: number, sentRevision: number): CmsError {
  return new CmsError(
    'CONFLICT',
    `The document changed since you fetched it (draftRevision is now ${serverRevision}, you sent ${sentRevision}): fetch it again and reapply your change.`,
    { draftRevision: serverRevision },
  );
}

/** The documents service's type, for action factories. */
export type DocumentsService = ReturnType<typeof createDocumentsService>;
