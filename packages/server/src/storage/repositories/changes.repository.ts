/**
 * The change feed's SQL (migration 0075): changes written in their transaction without a position,
 * numbered after commit by the sequencer under the lock of the environment's head row, read by
 * position, removed by retention. Every statement filters by environment (and project where it reads
 * for a caller).
 */
import type { ChangeKind } from '@cms/core';
import type { Queryable } from '../db.js';
import type { Scope } from './document-row.js';

/** A change as a transaction records it, with the id of its outbox event. */
export interface NewChange {
  id: string;
  documentId: string;
  type: string;
  locale: string;
  path: string;
  change: ChangeKind;
  /** What readers without draft scope see; null when the change is invisible to them. */
  publishedChange: ChangeKind | null;
  version: number;
}

/** A numbered change as the feed lists it. */
export interface ChangeRow {
  position: number;
  documentId: string;
  type: string;
  locale: string;
  path: string;
  change: ChangeKind;
  version: number;
  at: Date;
}

/** Where an environment's feed stands. */
export interface FeedHead {
  /** The last position handed out (0 before the first). */
  lastPosition: number;
  /** The last position removed by retention (0: none): a cursor before it has missed changes. */
  prunedThrough: number;
  /** Whether committed changes wait for a position. */
  pending: boolean;
}

/** Records changes of one environment with one statement, in order; inside the change's transaction. */
export async function insertChanges(tx: Queryable, scope: Scope, changes: readonly NewChange[]): Promise<void> {
  if (changes.length === 0) return;
  await tx.query(
    `insert into content_changes (id, project_id, environment_id, document_id, type, locale, path, change,
       published_change, version)
     select (c->>'id')::uuid, $1, $2, (c->>'documentId')::uuid, c->>'type', c->>'locale', c->>'path', c->>'change',
       c->>'publishedChange', (c->>'version')::int
     from jsonb_array_elements($3::jsonb) with ordinality as x(c, ord) order by ord`,
    [scope.projectId, scope.environmentId, JSON.stringify(changes)],
  );
}

/**
 * Numbers up to `limit` committed changes of one environment that have no position yet, in write
 * order, after the last position given, and moves the head. Run it in a transaction of its own: the
 * first statement locks the head row, so numberings of one environment run one after another, and the
 * second, with a snapshot taken once the lock is held, sees every numbering committed before. Returns
 * how many it numbered.
 */
export async function numberPendingChanges(tx: Queryable, scope: Scope, limit: number): Promise<number> {
  const head = await tx.query<{ lastPosition: number }>(
    `insert into change_feed_heads as h (environment_id, project_id) values ($2, $1)
     on conflict (environment_id) do update set last_position = h.last_position
     returning h.last_position as "lastPosition"`,
    [scope.projectId, scope.environmentId],
  );
  const last = head.rows[0]?.lastPosition ?? 0;
  const numbered = await tx.query<{ count: number }>(
    `with pending as (
       select o.id, row_number() over (order by o.seq) as n from (
         select c.id, c.seq from content_changes c
         where c.environment_id = $1 and c.position is null order by c.seq limit $3) o),
     numbered as (
       update content_changes c set position = $2 + p.n, at = clock_timestamp() from pending p
       where c.id = p.id returning 1),
     counted as (select count(*)::int as count from numbered),
     moved as (
       update change_feed_heads set last_position = $2 + (select count from counted)
       where environment_id = $1 returning 1)
     select (select count from counted) as count, (select count(*) from moved) as moved`,
    [scope.environmentId, last, limit],
  );
  return numbered.rows[0]?.count ?? 0;
}

/** The environments with committed changes waiting for a position. */
export async function listEnvironmentsWithPendingChanges(db: Queryable): Promise<Scope[]> {
  const result = await db.query<Scope>(
    `select distinct c.project_id as "projectId", c.environment_id as "environmentId"
     from content_changes c where c.position is null`,
  );
  return result.rows;
}

/** Where the environment's feed stands (all zero before its first change). */
export async function findFeedHead(db: Queryable, scope: Scope): Promise<FeedHead> {
  const result = await db.query<FeedHead>(
    `select coalesce(h.last_position, 0) as "lastPosition", coalesce(h.pruned_through, 0) as "prunedThrough",
       exists (select 1 from content_changes c where c.environment_id = $2 and c.position is null) as pending
     from (select 1) as one
     left join change_feed_heads h on h.environment_id = $2 and h.project_id = $1`,
    [scope.projectId, scope.environmentId],
    { readOnly: true },
  );
  return result.rows[0] as FeedHead;
}

/**
 * Numbered changes after position `after` up to `through` (the head read before), oldest first, at
 * most `limit`: every change, or with `published` only those readers without draft scope see, each
 * with the kind they see.
 */
export async function listChangesAfter(
  db: Queryable,
  scope: Scope,
  page: { after: number; through: number; limit: number; published: boolean },
): Promise<ChangeRow[]> {
  const kind = page.published ? 'c.published_change' : 'c.change';
  const visible = page.published ? 'and c.published_change is not null' : '';
  const result = await db.query<ChangeRow>(
    `select c.position, c.document_id as "documentId", c.type, c.locale, c.path, ${kind} as change, c.version, c.at
     from content_changes c
     where c.environment_id = $2 and c.project_id = $1 and c.position is not null ${visible}
       and c.position > $3 and c.position <= $4
     order by c.position limit $5`,
    [scope.projectId, scope.environmentId, page.after, page.through, page.limit],
    { prepare: true, readOnly: true },
  );
  return result.rows;
}

/** The environments holding numbered changes older than `cutoff`. */
export async function listEnvironmentsWithChangesBefore(db: Queryable, cutoff: Date): Promise<Scope[]> {
  const result = await db.query<Scope>(
    `select h.project_id as "projectId", h.environment_id as "environmentId" from change_feed_heads h
     where exists (select 1 from content_changes c where c.environment_id = h.environment_id
       and c.position is not null and c.position > h.pruned_through and c.at < $1)`,
    [cutoff],
  );
  return result.rows;
}

/**
 * Removes up to `limit` of the environment's oldest numbered changes made before `cutoff`, and records
 * the last position removed in its head (under the head's lock, like numbering). Returns how many went.
 */
export async function pruneChangesBefore(tx: Queryable, scope: Scope, cutoff: Date, limit: number): Promise<number> {
  await tx.query('select 1 from change_feed_heads where environment_id = $1 for update', [scope.environmentId]);
  const result = await tx.query<{ count: number }>(
    `with doomed as (
       select c.id, c.position from content_changes c
       where c.environment_id = $1 and c.position is not null and c.at < $2
       order by c.position limit $3),
     removed as (delete from content_changes c using doomed d where c.id = d.id returning d.position),
     moved as (
       update change_feed_heads set pruned_through = greatest(pruned_through, (select max(position) from removed))
       where environment_id = $1 and exists (select 1 from removed) returning 1)
     select (select count(*)::int from removed) as count, (select count(*) from moved) as moved`,
    [scope.environmentId, cutoff, limit],
  );
  return result.rows[0]?.count ?? 0;
}
