import type {
  ActionInput,
  ActionMethod,
  ActionResult,
  contentDeleteRoute,
  contentPublishRoute,
  contentRestoreRoute,
  contentUnpublishRoute,
} from '@cms/core';
import type { EnvironmentContext } from '../../../http/request-context.js';
import { withTransaction } from '../../../storage/db.js';
import { findVersion, insertVersion } from '../../../storage/repositories/document-versions.repository.js';
import {
  markDeleted,
  markPublished,
  markRestored,
  markUnpublished,
} from '../../../storage/repositories/documents.repository.js';
import { recordDocumentEvent } from './document-events.js';
import { getDocumentForChange, getLiveDocumentForChange } from './document-lookup.js';
import type { DocumentsDeps } from './documents.service.js';

type Publish = typeof contentPublishRoute;
type Unpublish = typeof contentUnpublishRoute;
type Delete = typeof contentDeleteRoute;
type Restore = typeof contentRestoreRoute;

/** The routes this service answers, each method declared against its route. */
interface LifecycleRoutes {
  publish: ActionMethod<Publish, EnvironmentContext>;
  unpublish: ActionMethod<Unpublish, EnvironmentContext>;
  remove: ActionMethod<Delete, EnvironmentContext>;
  restore: ActionMethod<Restore, EnvironmentContext>;
}

/**
 * Publishing and deletion (interface.md "States and transitions", decisions.md §3). Each method
 * takes its route's validated input and answers its route's result.
 */
export class DocumentLifecycleService implements LifecycleRoutes {
  constructor(private readonly deps: DocumentsDeps) {}

  /**
   * Snapshots the draft as the next immutable version. The row lock serializes concurrent
   * publishes, and the versions primary key would refuse a number taken twice. With nothing
   * unpublished it is a no-op answering the current version: no new version, no event.
   */
  async publish(ctx: EnvironmentContext, { params, body }: ActionInput<Publish>): Promise<ActionResult<Publish>> {
    const { deps } = this;
    const { target } = ctx;
    return withTransaction(deps.db, async (tx) => {
      const current = await getLiveDocumentForChange(tx, target, params.documentId);
      if (!current.hasUnpublishedChanges && current.publishedVersion !== null) {
        const published = await findVersion(tx, target, {
          documentId: current.id,
          version: current.publishedVersion,
        });
        if (published) return publishResult(current, published);
      }
      const at = deps.clock();
      const version = await insertVersion(tx, target, {
        documentId: current.id,
        version: current.version + 1,
        frontmatter: current.draftFrontmatter,
        body: current.draftBody,
        publishedAt: at,
        publishedBy: ctx.principal.id,
        changeSummary: body?.changeSummary ?? null,
      });
      const row = await markPublished(tx, target, {
        id: current.id,
        version: version.version,
        frontmatter: version.frontmatter,
        body: version.body,
        by: ctx.principal.id,
        at,
      });
      await recordDocumentEvent(deps.outbox, tx, ctx, 'content.published', row);
      return publishResult(row, version);
    });
  }

  /** Withdraws the published version; `version` and the history stay. Not published: a no-op. */
  async unpublish(ctx: EnvironmentContext, { params }: ActionInput<Unpublish>): Promise<ActionResult<Unpublish>> {
    const { deps } = this;
    const { target } = ctx;
    return withTransaction(deps.db, async (tx) => {
      const current = await getLiveDocumentForChange(tx, target, params.documentId);
      if (current.publishedVersion === null) return unpublishResult(current);
      const row = await markUnpublished(tx, target, { id: current.id, by: ctx.principal.id, at: deps.clock() });
      await recordDocumentEvent(deps.outbox, tx, ctx, 'content.unpublished', row);
      return unpublishResult(row);
    });
  }

  /** Soft-deletes: the id and history stay, the path and locale become free. Already deleted: NOT_FOUND. */
  async remove(ctx: EnvironmentContext, { params }: ActionInput<Delete>): Promise<ActionResult<Delete>> {
    const { deps } = this;
    const { target } = ctx;
    return withTransaction(deps.db, async (tx) => {
      const current = await getLiveDocumentForChange(tx, target, params.documentId);
      const at = deps.clock();
      const row = await markDeleted(tx, target, { id: current.id, by: ctx.principal.id, at });
      await recordDocumentEvent(deps.outbox, tx, ctx, 'content.deleted', row);
      return { documentId: row.id, isDeleted: true, deletedAt: at, deletedBy: ctx.principal.id };
    });
  }

  /**
   * Restores a soft-deleted document; CONTENT_PATH_CONFLICT when its path and locale (or its
   * group's locale) were taken meanwhile. A document that is not deleted is answered as is, no event.
   */
  async restore(ctx: EnvironmentContext, { params }: ActionInput<Restore>): Promise<ActionResult<Restore>> {
    const { deps } = this;
    const { target } = ctx;
    return withTransaction(deps.db, async (tx) => {
      const current = await getDocumentForChange(tx, target, params.documentId);
      if (!current.isDeleted) {
        return {
          documentId: current.id,
          isDeleted: false,
          restoredAt: current.updatedAt,
          restoredBy: current.updatedBy,
        };
      }
      const at = deps.clock();
      const row = await markRestored(tx, target, {
        id: current.id,
        path: current.path,
        locale: current.locale,
        by: ctx.principal.id,
        at,
      });
      await recordDocumentEvent(deps.outbox, tx, ctx, 'content.restored', row);
      return { documentId: row.id, isDeleted: false, restoredAt: at, restoredBy: ctx.principal.id };
    });
  }
}

/** The lifecycle service over its dependencies. */
export function createDocumentLifecycleService(deps: DocumentsDeps): DocumentLifecycleService {
  return new DocumentLifecycleService(deps);
}

function publishResult(
  row: { id: string; version: number; publishedVersion: number | null; hasUnpublishedChanges: boolean },
  version: { publishedAt: Date; publishedBy: string; changeSummary: string | null },
): ActionResult<Publish> {
  return {
    documentId: row.id,
    version: row.version,
    publishedVersion: row.publishedVersion,
    hasUnpublishedChanges: row.hasUnpublishedChanges,
    publishedAt: version.publishedAt,
    publishedBy: version.publishedBy,
    changeSummary: version.changeSummary,
  };
}

function unpublishResult(row: {
  id: string;
  version: number;
  hasUnpublishedChanges: boolean;
}): ActionResult<Unpublish> {
  return {
    documentId: row.id,
    version: row.version,
    publishedVersion: null,
    hasUnpublishedChanges: row.hasUnpublishedChanges,
  };
}
