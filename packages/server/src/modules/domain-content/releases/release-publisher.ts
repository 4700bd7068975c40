/**
 * A release going out, and its undo (docs/api.md "Releases"): one transaction, which the caller
 * opens after locking the release row. Every item is checked again; then either every document is
 * written (a new immutable version naming the release, or an unpublish) with its events and the
 * release becomes `published`, or nothing is and it becomes `failed` with the reason per item. The
 * status change commits with the documents, so a crash leaves the release as it was.
 */
import { randomUUID } from 'node:crypto';
import type { ReleaseWebhookEvent } from '@cms/core';
import { noteAuditDocuments } from '../../../audit/audit-scope.js';
import type { Clock } from '../../../clock.js';
import type { Target } from '../../../http/request-context.js';
import type { Queryable } from '../../../storage/db.js';
import {
  type LockedItem,
  lockReleaseDocuments,
  publishDrafts,
  recordPreviousVersions,
  recordPublishedVersions,
  republishVersions,
  unpublishDocuments,
  type WrittenDocument,
} from '../../../storage/repositories/release-publish.repository.js';
import {
  findRelease,
  insertRelease,
  listReleaseItems,
  type ReleaseRow,
  setReleaseItemErrors,
  updateReleaseState,
  upsertReleaseItems,
} from '../../../storage/repositories/releases.repository.js';
import type { EventActor, Outbox, OutboxEvent } from '../outbox.js';
import type { SchemaReader } from '../schema/schema-reader.js';
import { checkReleaseItems, type ItemProblem } from './release-checks.js';

export interface ReleasePublisherDeps {
  outbox: Outbox;
  schemas: SchemaReader;
  clock: Clock;
}

/** The `release` object of a `release.*` delivery. */
function releaseEvent(release: ReleaseRow, failures: readonly ItemProblem[]): ReleaseWebhookEvent['release'] {
  return {
    id: release.id,
    title: release.title,
    status: release.status,
    itemCount: release.itemCount,
    scheduledAt: release.scheduledAt?.toISOString() ?? null,
    publishedAt: release.publishedAt?.toISOString() ?? null,
    revertOf: release.revertOf,
    failures: [...failures],
  };
}

function documentEvent(type: 'content.published' | 'content.unpublished', actor: EventActor, row: WrittenDocument) {
  return {
    type,
    actor,
    document: {
      documentId: row.id,
      translationGroupId: row.translationGroupId,
      type: row.type,
      path: row.path,
      locale: row.locale,
      format: row.format,
      version: row.version,
    },
    publishedVersion: type === 'content.published' ? row.version : null,
  } satisfies OutboxEvent;
}

/** The `changeSummary` of the versions a release writes. */
export function releaseChangeSummary(release: { id: string; title: string }): string {
  return `Release "${release.title}" (${release.id})`;
}

export function createReleasePublisher(deps: ReleasePublisherDeps) {
  /** Marks the release published and records its documents' and its own events. */
  async function finish(
    tx: Queryable,
    target: Target,
    release: ReleaseRow,
    actor: EventActor,
    written: { published: WrittenDocument[]; unpublished: WrittenDocument[]; at: Date },
  ): Promise<void> {
    await recordPublishedVersions(tx, target, release.id);
    await updateReleaseState(tx, target, release.id, {
      status: 'published',
      scheduledAt: null,
      publishedAt: written.at,
    });
    const done: ReleaseRow = { ...release, status: 'published', publishedAt: written.at };
    // The action's audit entry (a publish or revert request) is in each document's activity.
    noteAuditDocuments(documentIdsOf(written));
    await deps.outbox.recordMany(tx, target, [
      ...written.published.map((row) => documentEvent('content.published', actor, row)),
      ...written.unpublished.map((row) => documentEvent('content.unpublished', actor, row)),
      { type: 'release.published', actor, release: releaseEvent(done, []) },
    ]);
  }

  return {
    /**
     * Publishes a release whose row the transaction holds locked: `published`, or `failed` with the
     * reasons and no document changed. Answers the status it ended in and the documents it wrote.
     * `scheduled`: it goes out at its scheduled time, so a draft changed since it was scheduled fails it.
     */
    async publishLocked(
      tx: Queryable,
      target: Target,
      release: ReleaseRow,
      actor: EventActor,
      options: { scheduled?: boolean } = {},
    ): Promise<{ status: 'published' | 'failed'; documentIds: string[] }> {
      const items = await lockReleaseDocuments(tx, target, release.id);
      const problems = await checkReleaseItems(tx, deps.schemas, target, items, options);
      if (problems.length > 0) {
        await setReleaseItemErrors(tx, target, release.id, problems);
        await updateReleaseState(tx, target, release.id, { status: 'failed', scheduledAt: null });
        const failed: ReleaseRow = { ...release, status: 'failed', scheduledAt: null };
        await deps.outbox.record(tx, target, {
          type: 'release.failed',
          actor,
          release: releaseEvent(failed, problems),
        });
        return { status: 'failed', documentIds: [] };
      }
      await recordPreviousVersions(tx, target, release.id);
      const at = deps.clock();
      const toPublish = items.filter(
        (item) => item.action === 'publish' && (item.hasUnpublishedChanges || item.publishedVersion === null),
      );
      const toUnpublish = items.filter((item) => item.action === 'unpublish' && item.publishedVersion !== null);
      const change = { by: actor.id, at, changeSummary: releaseChangeSummary(release) };
      const published = await publishDrafts(tx, target, ids(toPublish), change);
      const unpublished = await unpublishDocuments(tx, target, ids(toUnpublish), change);
      await finish(tx, target, release, actor, { published, unpublished, at });
      return { status: 'published', documentIds: documentIdsOf({ published, unpublished }) };
    },

    /**
     * Undoes a published release whose row the transaction holds locked: a new release, published at
     * once, that publishes again each document's version from before (or unpublishes what the release
     * published first); the original becomes `reverted`. Answers the new release's id.
     */
    async revertLocked(tx: Queryable, target: Target, release: ReleaseRow, actor: EventActor): Promise<string> {
      const locked = new Map((await lockReleaseDocuments(tx, target, release.id)).map((row) => [row.id, row]));
      const items = await listReleaseItems(tx, target, release.id);
      const republish: { documentId: string; version: number }[] = [];
      const unpublish: string[] = [];
      for (const item of items) {
        const row = locked.get(item.documentId);
        if (!row || row.isDeleted) continue;
        if (item.previousVersion !== null)
          republish.push({ documentId: item.documentId, version: item.previousVersion });
        else if (item.action === 'publish') unpublish.push(item.documentId);
      }
      const at = deps.clock();
      const inverse = await insertRelease(tx, target, {
        id: randomUUID(),
        title: `Revert "${release.title}"`.slice(0, 200),
        description: null,
        by: actor.id,
        at,
        revertOf: release.id,
      });
      await upsertReleaseItems(
        tx,
        target,
        inverse.id,
        [
          ...republish.map(({ documentId }) => ({ documentId, action: 'publish' as const })),
          ...unpublish.map((documentId) => ({ documentId, action: 'unpublish' as const })),
        ],
        at,
      );
      await recordPreviousVersions(tx, target, inverse.id);
      const change = { by: actor.id, at, changeSummary: releaseChangeSummary(inverse) };
      const published = await republishVersions(tx, target, republish, change);
      const unpublished = await unpublishDocuments(tx, target, unpublish, change);
      const counted = (await findRelease(tx, target, inverse.id)) ?? inverse;
      await finish(tx, target, counted, actor, { published, unpublished, at });
      await updateReleaseState(tx, target, release.id, { status: 'reverted', revertedBy: inverse.id });
      return inverse.id;
    },
  };
}

/** The documents a publish wrote, published or unpublished. */
export function documentIdsOf(written: { published: WrittenDocument[]; unpublished: WrittenDocument[] }): string[] {
  return [...written.published, ...written.unpublished].map((row) => row.id);
}

function ids(items: readonly LockedItem[]): string[] {
  return items.map((item) => item.id);
}

export type ReleasePublisher = ReturnType<typeof createReleasePublisher>;
