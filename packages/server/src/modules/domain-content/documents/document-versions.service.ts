import { notFound, type Page, type RestoreVersionResult } from '@cms/core';
import type { EnvironmentContext } from '../../../http/request-context.js';
import { withTransaction } from '../../../storage/db.js';
import { sourceText } from '../../../storage/repositories/document-row.js';
import {
  findVersion,
  listVersions,
  type SortOrder,
  type VersionRow,
} from '../../../storage/repositories/document-versions.repository.js';
import { findDocument, replaceDraft } from '../../../storage/repositories/documents.repository.js';
import { recordDocumentEvent } from './document-events.js';
import { getDocumentForChange } from './document-lookup.js';
import { sourceAfterWrite } from './document-source.js';
import type { DocumentsDeps } from './documents.service.js';

/** A version entry of the history (interface.md "Version entry"). */
export type VersionEntry = Pick<VersionRow, 'version' | 'publishedAt' | 'publishedBy' | 'changeSummary'>;

/** Version history: list, read one snapshot, restore a snapshot into the draft. */
export function createDocumentVersionsService(deps: DocumentsDeps) {
  /** The document must exist here (soft-deleted ones keep their history readable). */
  const assertDocumentExists = async (ctx: EnvironmentContext, documentId: string) => {
    if (!(await findDocument(deps.db, ctx.target, documentId))) throw notFound(`Document ${documentId}`);
  };

  return {
    /** Versions by number: newest first (`desc`, the default) or oldest first (`asc`). */
    async list(
      ctx: EnvironmentContext,
      input: { documentId: string; limit: number; offset: number; order?: SortOrder },
    ): Promise<Page<VersionEntry>> {
      await assertDocumentExists(ctx, input.documentId);
      const page = await listVersions(deps.db, ctx.target, { ...input, order: input.order ?? 'desc' });
      return {
        items: page.items.map(({ version, publishedAt, publishedBy, changeSummary }) => ({
          version,
          publishedAt,
          publishedBy,
          changeSummary,
        })),
        total: page.total,
        limit: input.limit,
        offset: input.offset,
      };
    },

    /** One version with its snapshot. */
    async get(ctx: EnvironmentContext, input: { documentId: string; version: number }): Promise<VersionRow> {
      await assertDocumentExists(ctx, input.documentId);
      const version = await findVersion(deps.db, ctx.target, input);
      if (!version) throw notFound(`Version ${input.version} of document ${input.documentId}`);
      return version;
    },

    /**
     * The draft takes the content of version n; `version` and `publishedVersion` stay (decisions.md
     * §3). The draft changed, so `content.updated` is recorded. The kept source text is patched to
     * the restored content (decisions.md §8): only the lines of the keys that differ are rewritten.
     */
    async restore(
      ctx: EnvironmentContext,
      input: { documentId: string; version: number },
    ): Promise<RestoreVersionResult> {
      const { target } = ctx;
      return withTransaction(deps.db, async (tx) => {
        const current = await getDocumentForChange(tx, target, input.documentId);
        const version = await findVersion(tx, target, input);
        if (!version) throw notFound(`Version ${input.version} of document ${input.documentId}`);
        // A type removed from the schema since: no field shapes, the patch still reads as the content.
        const type = (await deps.schemas.load(tx, target))?.types.get(current.type);
        const row = await replaceDraft(tx, target, {
          id: current.id,
          frontmatter: version.frontmatter,
          body: version.body,
          source: sourceAfterWrite({
            sent: undefined,
            previous: sourceText(current.draftSource),
            frontmatter: version.frontmatter,
            body: version.body,
            fields: type?.fields ?? {},
          }),
          by: ctx.principal.id,
          at: deps.clock(),
        });
        await recordDocumentEvent(deps.outbox, tx, ctx, 'content.updated', row);
        return {
          documentId: row.id,
          version: row.version,
          publishedVersion: row.publishedVersion,
          draftRevision: row.draftRevision,
          hasUnpublishedChanges: row.hasUnpublishedChanges,
          restoredFromVersion: version.version,
        };
      });
    },
  };
}

/** The versions service's type, for action factories. */
export type DocumentVersionsService = ReturnType<typeof createDocumentVersionsService>;
