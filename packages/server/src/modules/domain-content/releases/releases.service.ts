/**
 * Releases (docs/api.md "Releases"): creation, items, scheduling, publishing now, revert, and the
 * due-release runs the poller and `POST /releases/run-due` make. Every state change locks the release
 * row first, so a publish under way (the poller's included) finishes before anything else sees it.
 */
import { randomUUID } from 'node:crypto';
import {
  type ActionInput,
  type ActionMethod,
  type ActionResult,
  invalidInput,
  MAX_RELEASE_ITEMS,
  notFound,
  type Release,
  type RunDueResult,
  type releasesAddItemsRoute,
  type releasesCreateRoute,
  type releasesGetRoute,
  type releasesListRoute,
  type releasesPublishRoute,
  type releasesRemoveItemRoute,
  type releasesRevertRoute,
  type releasesRunDueRoute,
  type releasesScheduleRoute,
  type releasesUnscheduleRoute,
} from '@cms/core';
import type { FastifyBaseLogger } from 'fastify';
import type { AuditRecorder } from '../../../audit/audit-recorder.js';
import { noteAuditTarget } from '../../../audit/audit-scope.js';
import type { Clock } from '../../../clock.js';
import type { EnvironmentContext, Target } from '../../../http/request-context.js';
import type { BulkStatistics } from '../../../storage/bulk-statistics.js';
import { type Db, type Queryable, withTransaction } from '../../../storage/db.js';
import {
  claimDueRelease,
  deleteReleaseItem,
  findNextScheduledAt,
  findRelease,
  insertRelease,
  listReleaseItems,
  listReleases,
  type ReleaseRow,
  recordItemRevisions,
  updateReleaseState,
  upsertReleaseItems,
} from '../../../storage/repositories/releases.repository.js';
import { isDatabaseUnavailable } from '../../../storage/transient-retry.js';
import { actorOf } from '../documents/document-context.js';
import type { EventActor } from '../outbox.js';
import type { ReleasePublisher } from './release-publisher.js';
import { assertMayChangeItems, assertStatus, EDITABLE, knownTimeZone, summaryOf } from './release-rules.js';

/** Channel that wakes the due-release pollers when a schedule changes. */
export const RELEASES_CHANNEL = 'cms_releases';
/** Most due releases one `run-due` call publishes. */
const RUN_DUE_LIMIT = 100;
/**
 * How long the poller of this process leaves aside a due release whose publish threw (not an invalid
 * item, which fails the release: a bug or a broken row), so the releases due after it still go out.
 */
export const HOLD_BACK_MS = 60_000;

/** What a release publish or revert writes a row to per document. */
const BULK_TABLES = ['documents', 'document_versions'];

export interface ReleasesDeps {
  db: Db;
  clock: Clock;
  publisher: ReleasePublisher;
  log: FastifyBaseLogger;
  /** Told how many documents a publish or revert wrote, after its commit. */
  statistics?: BulkStatistics;
  /** Writes the entry of each due release published (no request's entry covers the poller's work). */
  audit?: AuditRecorder;
}

/** Who publishes a due release in the audit log: the server, on behalf of whoever scheduled it (in `changes`). */
export const RELEASE_SCHEDULER_ACTOR = {
  type: 'system',
  id: 'release-scheduler',
  label: 'Scheduled publishing',
} as const;

type Create = typeof releasesCreateRoute;
type List = typeof releasesListRoute;
type Get = typeof releasesGetRoute;
type AddItems = typeof releasesAddItemsRoute;
type RemoveItem = typeof releasesRemoveItemRoute;
type Schedule = typeof releasesScheduleRoute;
type Unschedule = typeof releasesUnscheduleRoute;
type Publish = typeof releasesPublishRoute;
type Revert = typeof releasesRevertRoute;
type RunDue = typeof releasesRunDueRoute;

/** The routes this service answers, each method declared against its route. */
interface ReleaseRoutes {
  create: ActionMethod<Create, EnvironmentContext>;
  list: ActionMethod<List, EnvironmentContext>;
  get: ActionMethod<Get, EnvironmentContext>;
  addItems: ActionMethod<AddItems, EnvironmentContext>;
  removeItem: ActionMethod<RemoveItem, EnvironmentContext>;
  schedule: ActionMethod<Schedule, EnvironmentContext>;
  unschedule: ActionMethod<Unschedule, EnvironmentContext>;
  publish: ActionMethod<Publish, EnvironmentContext>;
  revert: ActionMethod<Revert, EnvironmentContext>;
  runDue: ActionMethod<RunDue, EnvironmentContext>;
}

/**
 * The releases of an environment; each method a route's verb (docs/api.md "Releases"), taking its
 * route's validated input and answering its route's result.
 */
export class ReleasesService implements ReleaseRoutes {
  /** Due releases whose publish threw in this process's poller, with when to try each again (clock ms). */
  private readonly heldBack = new Map<string, number>();

  constructor(private readonly deps: ReleasesDeps) {}

  async create(ctx: EnvironmentContext, { body }: ActionInput<Create>): Promise<ActionResult<Create>> {
    const { db, clock } = this.deps;
    const release = {
      id: randomUUID(),
      title: body.title,
      description: body.description ?? null,
      by: ctx.principal.id,
      at: clock(),
    };
    // In a transaction, so the audit entry commits with the release (docs/audit.md), which it names.
    noteAuditTarget({ id: release.id, label: release.title });
    const row = await withTransaction(db, (tx) => insertRelease(tx, ctx.target, release));
    return this.view(db, ctx.target, row.id);
  }

  async get(ctx: EnvironmentContext, { params }: ActionInput<Get>): Promise<ActionResult<Get>> {
    return this.view(this.deps.db, ctx.target, params.id);
  }

  async list(ctx: EnvironmentContext, { query }: ActionInput<List>): Promise<ActionResult<List>> {
    const { rows, total } = await listReleases(this.deps.db, ctx.target, query);
    return { items: rows.map(summaryOf), total, limit: query.limit, offset: query.offset };
  }

  async addItems(ctx: EnvironmentContext, { params, body }: ActionInput<AddItems>): Promise<ActionResult<AddItems>> {
    const { clock } = this.deps;
    const { id } = params;
    return this.change(ctx, id, async (tx, row) => {
      assertStatus(row, EDITABLE, 'add items to');
      assertMayChangeItems(ctx, row);
      // The last action named for a document wins.
      const byDocument = new Map(body.items.map((item) => [item.documentId.toLowerCase(), item.action]));
      const items = [...byDocument].map(([documentId, action]) => ({ documentId, action }));
      const taken = new Set(await upsertReleaseItems(tx, ctx.target, id, items, clock()));
      const problems: Record<string, string> = {};
      body.items.forEach((item, index) => {
        if (!taken.has(item.documentId.toLowerCase())) {
          problems[`body.items[${index}].documentId`] = 'no live document with this id in this environment';
        }
      });
      if (Object.keys(problems).length > 0) throw invalidInput(problems);
      const count = (await findRelease(tx, ctx.target, id))?.itemCount ?? 0;
      if (count > MAX_RELEASE_ITEMS) {
        throw invalidInput({
          'body.items': `a release holds at most ${MAX_RELEASE_ITEMS} documents (this would make ${count}): split it in two`,
        });
      }
      return undefined;
    });
  }

  async removeItem(ctx: EnvironmentContext, { params }: ActionInput<RemoveItem>): Promise<ActionResult<RemoveItem>> {
    const { id, documentId } = params;
    return this.change(ctx, id, async (tx, row) => {
      assertStatus(row, EDITABLE, 'remove items from');
      assertMayChangeItems(ctx, row);
      if (!(await deleteReleaseItem(tx, ctx.target, id, documentId))) {
        throw notFound(`Document ${documentId} in release ${id}`);
      }
      return undefined;
    });
  }

  async schedule(ctx: EnvironmentContext, { params, body }: ActionInput<Schedule>): Promise<ActionResult<Schedule>> {
    const { db, clock } = this.deps;
    const { id } = params;
    return this.change(ctx, id, async (tx, row) => {
      assertStatus(row, EDITABLE, 'schedule');
      const timeZone = knownTimeZone(body.timeZone ?? 'UTC');
      if (!timeZone) {
        throw invalidInput({ 'body.timeZone': 'must be an IANA time zone name, such as "Europe/Paris" or "UTC"' });
      }
      const at = new Date(body.scheduledAt);
      if (at.getTime() < clock().getTime()) {
        throw invalidInput({
          'body.scheduledAt': `is in the past (now is ${clock().toISOString()}): pick a later time, or publish now`,
        });
      }
      await updateReleaseState(tx, ctx.target, id, {
        status: 'scheduled',
        scheduledAt: at,
        timeZone,
        scheduledBy: ctx.principal.id,
      });
      // What goes out at that time is the drafts as they are now: a later edit fails the release (release-checks.ts).
      await recordItemRevisions(tx, ctx.target, id);
      await db.wake(tx, RELEASES_CHANNEL, id);
      return undefined;
    });
  }

  async unschedule(ctx: EnvironmentContext, { params }: ActionInput<Unschedule>): Promise<ActionResult<Unschedule>> {
    const { id } = params;
    return this.change(ctx, id, async (tx, row) => {
      assertStatus(row, ['scheduled'], 'unschedule');
      await updateReleaseState(tx, ctx.target, id, { status: 'open', scheduledAt: null });
      return undefined;
    });
  }

  async publish(ctx: EnvironmentContext, { params }: ActionInput<Publish>): Promise<ActionResult<Publish>> {
    const { publisher } = this.deps;
    return this.change(
      ctx,
      params.id,
      async (tx, row) => {
        assertStatus(row, EDITABLE, 'publish');
        await publisher.publishLocked(tx, ctx.target, row, actorOf(ctx));
        return undefined;
      },
      { writesItems: true },
    );
  }

  async revert(ctx: EnvironmentContext, { params }: ActionInput<Revert>): Promise<ActionResult<Revert>> {
    const { publisher } = this.deps;
    return this.change(
      ctx,
      params.id,
      async (tx, row) => {
        assertStatus(row, ['published'], 'revert');
        return publisher.revertLocked(tx, ctx.target, row, actorOf(ctx));
      },
      { writesItems: true },
    );
  }

  /** `POST /releases/run-due`: the due releases of the request's environment. */
  async runDue(ctx: EnvironmentContext, _input?: ActionInput<RunDue>): Promise<ActionResult<RunDue>> {
    return this.publishDue(ctx.target, RUN_DUE_LIMIT);
  }

  /** One poller pass: claims and publishes one due release of any environment; true when it did. */
  async runOneDue(): Promise<boolean> {
    const outcome = await this.publishDue(null, 1);
    return outcome.published.length + outcome.failed.length > 0;
  }

  /** When the poller has work next: the soonest scheduled release, or a held-back one's next try. */
  async nextDueAt(): Promise<Date | null> {
    const next = await findNextScheduledAt(this.deps.db, this.heldBackIds());
    const retries = [...this.heldBack.values()];
    if (retries.length === 0) return next;
    const retry = Math.min(...retries);
    return next === null || retry < next.getTime() ? new Date(retry) : next;
  }

  /** The ids held back now (those whose time to try again has come are let go). */
  private heldBackIds(): string[] {
    const now = this.deps.clock().getTime();
    for (const [id, until] of this.heldBack) if (until <= now) this.heldBack.delete(id);
    return [...this.heldBack.keys()];
  }

  /** A release with its items, as the routes answer it. */
  private async view(queryable: Queryable, target: Target, id: string): Promise<Release> {
    const row = await findRelease(queryable, target, id);
    if (!row) throw notFound(`Release ${id}`);
    const items = await listReleaseItems(queryable, target, id);
    return {
      ...summaryOf(row),
      items: items.map((item) => ({
        documentId: item.documentId,
        action: item.action,
        type: item.type,
        path: item.path,
        locale: item.locale,
        draftRevision: item.draftRevision,
        changedSinceAdded: item.currentDraftRevision !== item.draftRevision,
        error: item.error,
        previousVersion: item.previousVersion,
        publishedVersion: item.publishedVersion,
      })),
    };
  }

  /** Runs fn on the release locked for the transaction, then answers it as it is after. */
  private async change(
    ctx: EnvironmentContext,
    id: string,
    fn: (tx: Queryable, row: ReleaseRow) => Promise<string | undefined>,
    options: { writesItems?: boolean } = {},
  ): Promise<Release> {
    const { db, statistics } = this.deps;
    const { target } = ctx;
    let items = 0;
    const answerId = await withTransaction(db, async (tx) => {
      const row = await findRelease(tx, target, id, { forUpdate: true });
      if (!row) throw notFound(`Release ${id}`);
      noteAuditTarget({ label: row.title });
      items = row.itemCount;
      return (await fn(tx, row)) ?? id;
    });
    // Committed: a release of many documents leaves the planner's statistics fresh (bulk-statistics.ts).
    if (options.writesItems) statistics?.noteBulkWrite(BULK_TABLES, items);
    return this.view(db, target, answerId);
  }

  /** Publishes due releases one transaction each; `scope` null: any environment (the poller). */
  private async publishDue(scope: Target | null, limit: number): Promise<RunDueResult> {
    const { db, clock, publisher, log, statistics, audit } = this.deps;
    const outcome: RunDueResult = { published: [], failed: [] };
    while (outcome.published.length + outcome.failed.length < limit) {
      let claimed: string | null = null;
      const done = await withTransaction(db, async (tx) => {
        const due = await claimDueRelease(tx, clock(), scope, scope === null ? this.heldBackIds() : []);
        if (!due) return null;
        claimed = due.id;
        const target: Target = {
          projectId: due.projectId,
          projectSlug: due.projectSlug,
          environmentId: due.environmentId,
          environmentName: due.environmentName,
          extendsEnvironmentId: due.extendsEnvironmentId,
          isDefaultEnvironment: due.isDefaultEnvironment,
        };
        const row = (await findRelease(tx, target, due.id)) as ReleaseRow;
        const actor: EventActor = { id: due.actorId, email: due.actorEmail };
        const where = { releaseId: due.id, project: due.projectSlug, environment: due.environmentName };
        log.info({ ...where, items: row.itemCount }, 'publishing a due release');
        const { status, documentIds } = await publisher.publishLocked(tx, target, row, actor, { scheduled: true });
        // Its own entry, in this transaction, in every document's activity (docs/audit.md).
        await audit?.write(tx, {
          action: 'releases.publish',
          actor: RELEASE_SCHEDULER_ACTOR,
          outcome: status === 'published' ? 'success' : 'failure',
          projectId: due.projectId,
          target: { project: due.projectSlug, environment: due.environmentName, id: due.id, label: row.title },
          changes: {
            scheduled: { by: due.actorId, email: due.actorEmail || null },
            status,
            items: row.itemCount,
            documents: documentIds.length,
          },
          documentIds,
        });
        return { id: due.id, where, status, items: row.itemCount };
      }).catch((error: unknown) => {
        // The poller sets aside a release that throws and goes on with the others; `run-due` answers the error.
        if (scope !== null || claimed === null || isDatabaseUnavailable(error)) throw error;
        this.heldBack.set(claimed, clock().getTime() + HOLD_BACK_MS);
        log.error(
          { err: error, releaseId: claimed, retryInMs: HOLD_BACK_MS },
          'a due release could not be published (rolled back, still scheduled); the others go on, this one is tried again later',
        );
        return 'held back' as const;
      });
      if (done === 'held back') continue;
      if (!done) break;
      if (done.status === 'published') statistics?.noteBulkWrite(BULK_TABLES, done.items);
      if (done.status === 'published') log.info(done.where, 'published a due release');
      else log.warn(done.where, 'a due release failed: an item is invalid (see the release)');
      outcome[done.status].push(done.id);
    }
    return outcome;
  }
}
