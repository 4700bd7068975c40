import { randomUUID } from 'node:crypto';
import { CmsError, invalidInput } from '@cms/core';
import type { Clock } from '../../../clock.js';
import type { EnvironmentContext, Target } from '../../../http/request-context.js';
import { type Db, type Queryable, withTransaction } from '../../../storage/db.js';
import {
  findTranslationGroupType,
  insertDocument,
  listPathsStartingWith,
  updateDraftIfRevision,
} from '../../../storage/repositories/documents.repository.js';
import type { Outbox } from '../outbox.js';
import { requireSchemaType, type SchemaReader } from '../schema/schema-reader.js';
import { recordDocumentEvent } from './document-events.js';
import { getLiveDocumentForChange } from './document-lookup.js';
import { assertReferences, assertSchemaHash, checkFrontmatter, validateDraft } from './document-validation.js';
import { type DocumentView, toDocumentView } from './document-view.js';
import { COPY_SUFFIX, firstFreeCopyPath, pathProblem, resolveLocale } from './path-rules.js';

/** What the document services need: storage, the outbox, the schema in force and the time. */
export interface DocumentsDeps {
  db: Db;
  outbox: Outbox;
  schemas: SchemaReader;
  clock: Clock;
}

/** `POST /content` body plus the `X-CMS-Schema-Hash` header. */
export interface CreateDocumentInput {
  type: string;
  path: string;
  locale?: string;
  format: 'md' | 'mdx';
  frontmatter: Record<string, unknown>;
  body: string;
  translationGroupId?: string;
  schemaHash: string | undefined;
  /** `X-CMS-Locale`: the locale of a localized type when the body names none (the body wins). */
  localeHeader?: string | undefined;
}

/** `PUT /content/{documentId}` body plus the `X-CMS-Schema-Hash` header. */
export interface UpdateDocumentInput {
  documentId: string;
  frontmatter: Record<string, unknown>;
  body: string;
  draftRevision: number;
  schemaHash: string | undefined;
}

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
    async create(ctx: EnvironmentContext, input: CreateDocumentInput): Promise<DocumentView> {
      const { target } = ctx;
      return withTransaction(deps.db, async (tx) => {
        const schema = await deps.schemas.load(tx, target);
        assertSchemaHash(schema, input.schemaHash);
        const typed = requireSchemaType(schema, input.type);
        const { type } = typed;
        const sentLocale = input.locale ?? (type.localized ? input.localeHeader : undefined);
        const locale = resolveLocale(type.localized, type.name, sentLocale);
        const badPath = pathProblem(input.path);
        const checked = checkFrontmatter(deps.schemas, typed, input.frontmatter);
        // Path, locale and frontmatter problems are reported together.
        if (badPath || locale.locale === null || checked.value === null) {
          throw invalidInput({
            ...(badPath ? { path: badPath } : {}),
            ...(locale.problem ? { locale: locale.problem } : {}),
            ...checked.fields,
          });
        }
        const frontmatter = checked.value;
        await assertReferences(tx, target, type, frontmatter);
        const groupId = input.translationGroupId?.toLowerCase();
        if (groupId) await assertJoinableGroup(tx, target, groupId, type.name);
        const row = await insertDocument(tx, target, {
          id: randomUUID(),
          translationGroupId: groupId ?? randomUUID(),
          type: type.name,
          path: input.path,
          locale: locale.locale,
          format: input.format,
          frontmatter,
          body: input.body,
          by: ctx.principal.id,
          at: deps.clock(),
        });
        await recordDocumentEvent(deps.outbox, tx, ctx, 'content.created', row);
        return toDocumentView(row, { draft: true, target });
      });
    },

    /** Replaces the draft (complete frontmatter and body) unless `draftRevision` is stale. */
    async update(ctx: EnvironmentContext, input: UpdateDocumentInput): Promise<DocumentView> {
      const { target } = ctx;
      return withTransaction(deps.db, async (tx) => {
        const current = await getLiveDocumentForChange(tx, target, input.documentId);
        const schema = await deps.schemas.load(tx, target);
        assertSchemaHash(schema, input.schemaHash);
        if (current.draftRevision > input.draftRevision)
          throw revisionConflict(current.draftRevision, input.draftRevision);
        const frontmatter = await validateDraft(
          deps,
          tx,
          { ...requireSchemaType(schema, current.type), target },
          input.frontmatter,
        );
        const row = await updateDraftIfRevision(tx, target, {
          id: current.id,
          revision: input.draftRevision,
          frontmatter,
          body: input.body,
          by: ctx.principal.id,
          at: deps.clock(),
        });
        // The row is locked above, so only a change of locking strategy could get here.
        if (!row) throw revisionConflict(current.draftRevision + 1, input.draftRevision);
        await recordDocumentEvent(deps.outbox, tx, ctx, 'content.updated', row);
        return toDocumentView(row, { draft: true, target });
      });
    },

    /**
     * Copies a document's draft into a new draft-only document with a new id, a new translation
     * group and a new path: the one given, else the first free of `<path>-copy`, `<path>-copy-2`, ...
     */
    async duplicate(ctx: EnvironmentContext, input: DuplicateDocumentInput): Promise<DocumentView> {
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
