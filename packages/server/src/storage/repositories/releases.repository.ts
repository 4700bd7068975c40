/**
 * SQL of releases and their items (migration 0025, docs/api.md "Releases"): every statement filters
 * by project and environment; item lists are written with one statement however many there are.
 */
import type { Queryable } from '../db.js';
import type { Scope } from './document-row.js';

export type ReleaseStatus = 'open' | 'scheduled' | 'publishing' | 'published' | 'failed' | 'reverted';
export type ReleaseAction = 'publish' | 'unpublish';

/** A releases row. */
export interface ReleaseRow {
  id: string;
  projectId: string;
  environmentId: string;
  title: string;
  description: string | null;
  status: ReleaseStatus;
  scheduledAt: Date | null;
  timeZone: string | null;
  scheduledBy: string | null;
  createdBy: string;
  createdAt: Date;
  publishedAt: Date | null;
  revertOf: string | null;
  revertedBy: string | null;
  itemCount: number;
}

/** An item with the document it names, as it is now. */
export interface ReleaseItemRow {
  documentId: string;
  action: ReleaseAction;
  type: string;
  path: string;
  locale: string;
  draftRevision: number;
  currentDraftRevision: number;
  error: string | null;
  previousVersion: number | null;
  publishedVersion: number | null;
}

const RELEASE_COLUMNS = `r.id, r.project_id as "projectId", r.environment_id as "environmentId", r.title,
  r.description, r.status, r.scheduled_at as "scheduledAt", r.time_zone as "timeZone",
  r.scheduled_by as "scheduledBy", r.created_by as "createdBy", r.created_at as "createdAt",
  r.published_at as "publishedAt", r.revert_of as "revertOf", r.reverted_by as "revertedBy",
  (select count(*)::int from release_items i where i.release_id = r.id) as "itemCount"`;

export async function insertRelease(
  db: Queryable,
  scope: Scope,
  release: { id: string; title: string; description: string | null; by: string; at: Date; revertOf?: string },
): Promise<ReleaseRow> {
  const result = await db.query<ReleaseRow>(
    `insert into releases as r (id, project_id, environment_id, title, description, created_by, created_at, revert_of)
     values ($3, $1, $2, $4, $5, $6, $7, $8) returning ${RELEASE_COLUMNS}`,
    [
      scope.projectId,
      scope.environmentId,
      release.id,
      release.title,
      release.description,
      release.by,
      release.at,
      release.revertOf ?? null,
    ],
  );
  return result.rows[0] as ReleaseRow;
}

/** One release; `forUpdate` locks it until the transaction ends (waiting for a publish under way). */
export async function findRelease(
  db: Queryable,
  scope: Scope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ReleaseRow | null> {
  const result = await db.query<ReleaseRow>(
    `select ${RELEASE_COLUMNS} from releases r where r.project_id = $1 and r.environment_id = $2 and r.id = $3
     ${options.forUpdate ? 'for update' : ''}`,
    [scope.projectId, scope.environmentId, id],
  );
  return result.rows[0] ?? null;
}

export async function listReleases(
  db: Queryable,
  scope: Scope,
  query: { status?: ReleaseStatus; limit: number; offset: number },
): Promise<{ rows: ReleaseRow[]; total: number }> {
  const params = [scope.projectId, scope.environmentId, query.status ?? null];
  const where = 'r.project_id = $1 and r.environment_id = $2 and ($3::text is null or r.status = $3)';
  const rows = await db.query<ReleaseRow>(
    `select ${RELEASE_COLUMNS} from releases r where ${where} order by r.created_at desc, r.id limit $4 offset $5`,
    [...params, query.limit, query.offset],
  );
  const count = await db.query<{ total: number }>(
    `select count(*)::int as total from releases r where ${where}`,
    params,
  );
  return { rows: rows.rows, total: count.rows[0]?.total ?? 0 };
}

/** The items of a release in the order they were added, with their documents' type, path and revision now. */
export async function listReleaseItems(db: Queryable, scope: Scope, releaseId: string): Promise<ReleaseItemRow[]> {
  const result = await db.query<ReleaseItemRow>(
    `select i.document_id as "documentId", i.action, d.type, d.path, d.locale, i.draft_revision as "draftRevision",
       d.draft_revision as "currentDraftRevision", i.error, i.previous_version as "previousVersion",
       i.published_version as "publishedVersion"
     from release_items i join documents d on d.id = i.document_id and d.project_id = i.project_id
       and d.environment_id = i.environment_id
     where i.project_id = $1 and i.environment_id = $2 and i.release_id = $3
     order by i.position, i.document_id`,
    [scope.projectId, scope.environmentId, releaseId],
  );
  return result.rows;
}

/**
 * Adds items (or changes the action of ones already there), recording each document's draft revision
 * now. Only non-deleted documents of this environment are taken; answers the ids taken.
 */
export async function upsertReleaseItems(
  db: Queryable,
  scope: Scope,
  releaseId: string,
  items: readonly { documentId: string; action: ReleaseAction }[],
  at: Date,
): Promise<string[]> {
  const result = await db.query<{ documentId: string }>(
    `insert into release_items (release_id, document_id, project_id, environment_id, action, draft_revision, added_at, position)
     select $3, d.id, d.project_id, d.environment_id, x.action, d.draft_revision, $5,
       coalesce((select max(position) from release_items where release_id = $3), 0) + x.ord::int
     from rows from (jsonb_to_recordset($4::jsonb) as ("documentId" uuid, action text))
       with ordinality as x("documentId", action, ord)
     join documents d on d.id = x."documentId" and d.project_id = $1 and d.environment_id = $2 and not d.is_deleted
     on conflict (release_id, document_id) do update
       set action = excluded.action, draft_revision = excluded.draft_revision, added_at = excluded.added_at, error = null
     returning document_id as "documentId"`,
    [scope.projectId, scope.environmentId, releaseId, JSON.stringify(items), at],
  );
  return result.rows.map((row) => row.documentId);
}

/**
 * Records each item's draft revision as it is now (a release being scheduled): at its time, a `publish`
 * item whose draft moved on since fails the release instead of publishing what nobody scheduled.
 */
export async function recordItemRevisions(db: Queryable, scope: Scope, releaseId: string): Promise<void> {
  await db.query(
    `update release_items i set draft_revision = d.draft_revision from documents d
     where i.project_id = $1 and i.environment_id = $2 and i.release_id = $3
       and d.id = i.document_id and d.project_id = i.project_id and d.environment_id = i.environment_id`,
    [scope.projectId, scope.environmentId, releaseId],
  );
}

export async function deleteReleaseItem(
  db: Queryable,
  scope: Scope,
  releaseId: string,
  documentId: string,
): Promise<boolean> {
  const result = await db.query(
    'delete from release_items where project_id = $1 and environment_id = $2 and release_id = $3 and document_id = $4',
    [scope.projectId, scope.environmentId, releaseId, documentId],
  );
  return result.rowCount > 0;
}

/** Sets status and schedule together (the table's check keeps them consistent). */
export async function updateReleaseState(
  db: Queryable,
  scope: Scope,
  id: string,
  state: {
    status: ReleaseStatus;
    scheduledAt?: Date | null;
    timeZone?: string | null;
    scheduledBy?: string | null;
    publishedAt?: Date | null;
    revertedBy?: string | null;
  },
): Promise<void> {
  await db.query(
    `update releases set status = $4,
       scheduled_at = $5, time_zone = case when $10 then $6 else time_zone end,
       scheduled_by = case when $10 then $7 else scheduled_by end,
       published_at = case when $11 then $8 else published_at end,
       reverted_by = coalesce($9, reverted_by)
     where project_id = $1 and environment_id = $2 and id = $3`,
    [
      scope.projectId,
      scope.environmentId,
      id,
      state.status,
      state.scheduledAt ?? null,
      state.timeZone ?? null,
      state.scheduledBy ?? null,
      state.publishedAt ?? null,
      state.revertedBy ?? null,
      state.timeZone !== undefined,
      state.publishedAt !== undefined,
    ],
  );
}

/** Records why items kept the release from publishing, and clears the others' reasons. */
export async function setReleaseItemErrors(
  db: Queryable,
  scope: Scope,
  releaseId: string,
  errors: readonly { documentId: string; error: string }[],
): Promise<void> {
  await db.query(
    `update release_items i set error = x.error
     from (select i2.document_id, e.error from release_items i2
           left join jsonb_to_recordset($4::jsonb) as e("documentId" uuid, error text) on e."documentId" = i2.document_id
           where i2.release_id = $3) x
     where i.project_id = $1 and i.environment_id = $2 and i.release_id = $3 and i.document_id = x.document_id`,
    [scope.projectId, scope.environmentId, releaseId, JSON.stringify(errors)],
  );
}

/** A due release with the names its events need. */
export interface DueRelease {
  id: string;
  projectId: string;
  projectSlug: string;
  environmentId: string;
  environmentName: string;
  extendsEnvironmentId: string | null;
  isDefaultEnvironment: boolean;
  /** Who its events name: the person who scheduled it (else who created it), with their email ('' for a key). */
  actorId: string;
  actorEmail: string;
}

/**
 * Claims the soonest release due at `now` (one environment's, or any), leaving out the ids in `skip`:
 * the row stays locked until the caller's transaction ends, and rows another process holds are
 * skipped, so each fires once.
 */
export async function claimDueRelease(
  db: Queryable,
  now: Date,
  scope: Scope | null,
  skip: readonly string[] = [],
): Promise<DueRelease | null> {
  const result = await db.query<DueRelease>(
    `select r.id, r.project_id as "projectId", p.slug as "projectSlug", r.environment_id as "environmentId",
       e.name as "environmentName", e.extends_id as "extendsEnvironmentId", e.is_default as "isDefaultEnvironment",
       coalesce(r.scheduled_by, r.created_by) as "actorId", coalesce(u.email, '') as "actorEmail"
     from releases r join projects p on p.id = r.project_id join environments e on e.id = r.environment_id
       left join users u on u.id::text = coalesce(r.scheduled_by, r.created_by)
     where r.status = 'scheduled' and r.scheduled_at <= $1
       and ($2::uuid is null or (r.project_id = $2 and r.environment_id = $3)) and not (r.id = any($4::uuid[]))
     order by r.scheduled_at, r.id limit 1
     for update of r skip locked`,
    [now, scope?.projectId ?? null, scope?.environmentId ?? null, skip],
  );
  return result.rows[0] ?? null;
}

/** The soonest scheduled instant of any release but those in `skip`, or null. */
export async function findNextScheduledAt(db: Queryable, skip: readonly string[] = []): Promise<Date | null> {
  const result = await db.query<{ at: Date | null }>(
    `select min(scheduled_at) as at from releases where status = 'scheduled' and not (id = any($1::uuid[]))`,
    [skip],
  );
  return result.rows[0]?.at ?? null;
}

/**
 * What a release does to a document, for a release preview: its action, `none` when the document is
 * not in it, or null when there is no such release here.
 */
export async function findReleaseActionFor(
  db: Queryable,
  scope: Scope,
  releaseId: string,
  documentId: string,
): Promise<ReleaseAction | 'none' | null> {
  const result = await db.query<{ action: ReleaseAction | null }>(
    `select (select i.action from release_items i where i.release_id = r.id and i.document_id = $4) as action
     from releases r where r.project_id = $1 and r.environment_id = $2 and r.id = $3`,
    [scope.projectId, scope.environmentId, releaseId, documentId],
  );
  const row = result.rows[0];
  if (!row) return null;
  return row.action ?? 'none';
}
