import type { Queryable } from '../db.js';

/**
 * Channel that wakes the media purge worker once a transaction that queued purges commits (an
 * environment delete); every process listening on PostgreSQL, this process on PGlite.
 */
export const MEDIA_PURGE_CHANNEL = 'cms_media_purge';

/** The project and environment every media statement is confined to. */
export interface MediaScope {
  projectId: string;
  environmentId: string;
}

/** A media row. */
export interface MediaRow {
  id: string;
  projectId: string;
  environmentId: string;
  filename: string;
  storageName: string;
  storageKey: string;
  mimeType: string;
  category: string;
  sizeBytes: number;
  uploadedBy: string;
  uploadedAt: Date;
  alt: string;
  width: number | null;
  height: number | null;
  focalX: number | null;
  focalY: number | null;
}

/** Columns a list can be sorted by. */
export type MediaSortColumn = 'uploadedAt' | 'filename' | 'sizeBytes';

/** Filters, order and page of a media list; every filter is optional (null). */
export interface MediaListArgs {
  /** Case-insensitive substring of the filename, matched literally (no wildcards). */
  q: string | null;
  category: string | null;
  uploadedBy: string | null;
  /** Inclusive lower bound of uploaded_at. */
  uploadedFrom: Date | null;
  /** Exclusive upper bound of uploaded_at. */
  uploadedBefore: Date | null;
  sort: MediaSortColumn;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const COLUMNS = `id, project_id as "projectId", environment_id as "environmentId", filename,
  storage_name as "storageName", storage_key as "storageKey", mime_type as "mimeType", category,
  size_bytes::float8 as "sizeBytes", uploaded_by as "uploadedBy", uploaded_at as "uploadedAt", alt, width, height,
  focal_x as "focalX", focal_y as "focalY"`;

// Whitelisted sort expressions, matching the indexes of migration 0007. Filenames sort
// case-insensitively and byte-wise ("C"), so PGlite and PostgreSQL agree whatever their locale.
const SORT_EXPRESSIONS: Record<MediaSortColumn, string> = {
  uploadedAt: 'uploaded_at',
  filename: 'lower(filename) collate "C"',
  sizeBytes: 'size_bytes',
};

/** Inserts a media row once its object is stored. */
export async function insertMedia(
  tx: Queryable,
  row: Omit<MediaRow, 'uploadedAt' | 'alt' | 'focalX' | 'focalY'>,
): Promise<MediaRow> {
  const result = await tx.query<MediaRow>(
    `insert into media (id, project_id, environment_id, filename, storage_name, storage_key, mime_type, category,
       size_bytes, uploaded_by, width, height)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     returning ${COLUMNS}`,
    [
      row.id,
      row.projectId,
      row.environmentId,
      row.filename,
      row.storageName,
      row.storageKey,
      row.mimeType,
      row.category,
      row.sizeBytes,
      row.uploadedBy,
      row.width,
      row.height,
    ],
  );
  return result.rows[0] as MediaRow;
}

/** The editable fields of a media row; a field left out keeps its value. */
export interface MediaChanges {
  alt?: string;
  focalPoint?: { x: number; y: number } | null;
}

/** Changes the alt text and/or focal point of one media row of the scope; returns it, or null when there is none. */
export async function updateMedia(
  db: Queryable,
  scope: MediaScope,
  id: string,
  changes: MediaChanges,
): Promise<MediaRow | null> {
  const setFocal = changes.focalPoint !== undefined;
  const result = await db.query<MediaRow>(
    `update media set
       alt = coalesce($4, alt),
       focal_x = case when $5 then $6::float8 else focal_x end,
       focal_y = case when $5 then $7::float8 else focal_y end
     where project_id = $1 and environment_id = $2 and id = $3
     returning ${COLUMNS}`,
    [
      scope.projectId,
      scope.environmentId,
      id,
      changes.alt ?? null,
      setFocal,
      changes.focalPoint?.x ?? null,
      changes.focalPoint?.y ?? null,
    ],
  );
  return result.rows[0] ?? null;
}

/** A media row with the slugs of its project and environment, for requests that name only the asset id. */
export interface MediaRowWithTarget extends MediaRow {
  projectSlug: string;
  environmentName: string;
  /** The project's settings (image presets and limits), read fresh with the row. */
  projectSettings: Record<string, unknown>;
}

/**
 * Finds a media row by id alone, with its project and environment names: the image route carries no
 * routing headers (it works in `<img src>`), so the row says where it stands and the caller checks access.
 */
export async function findMediaWithTarget(db: Queryable, id: string): Promise<MediaRowWithTarget | null> {
  const result = await db.query<MediaRowWithTarget>(
    `select m.*, p.slug as "projectSlug", e.name as "environmentName", p.settings as "projectSettings"
     from (select ${COLUMNS} from media where id = $1) m
     join projects p on p.id = m."projectId"
     join environments e on e.id = m."environmentId"`,
    [id],
  );
  return result.rows[0] ?? null;
}

/** Finds one media row of the scope, or null. */
export async function findMedia(db: Queryable, scope: MediaScope, id: string): Promise<MediaRow | null> {
  const result = await db.query<MediaRow>(
    `select ${COLUMNS} from media where project_id = $1 and environment_id = $2 and id = $3`,
    [scope.projectId, scope.environmentId, id],
  );
  return result.rows[0] ?? null;
}

/** Finds the row a file url names: every part of the url must match, or null. */
export async function findMediaByFile(
  db: Queryable,
  file: MediaScope & { id: string; storageName: string },
): Promise<MediaRow | null> {
  const result = await db.query<MediaRow>(
    `select ${COLUMNS} from media
     where project_id = $1 and environment_id = $2 and id = $3 and storage_name = $4`,
    [file.projectId, file.environmentId, file.id, file.storageName],
  );
  return result.rows[0] ?? null;
}

/** Lists one page of the scope's media and the total matching the filters. */
export async function listMedia(
  db: Queryable,
  scope: MediaScope,
  args: MediaListArgs,
): Promise<{ rows: MediaRow[]; total: number }> {
  const params: unknown[] = [scope.projectId, scope.environmentId];
  const where = ['project_id = $1', 'environment_id = $2'];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  if (args.q !== null) add((p) => `filename ilike ${p} escape '\\'`, `%${escapeLike(args.q)}%`);
  if (args.category !== null) add((p) => `category = ${p}`, args.category);
  if (args.uploadedBy !== null) add((p) => `uploaded_by = ${p}`, args.uploadedBy);
  if (args.uploadedFrom !== null) add((p) => `uploaded_at >= ${p}`, args.uploadedFrom);
  if (args.uploadedBefore !== null) add((p) => `uploaded_at < ${p}`, args.uploadedBefore);
  const filter = where.join(' and ');
  const direction = args.order === 'asc' ? 'asc' : 'desc';
  const total = await db.query<{ total: number }>(`select count(*)::int as total from media where ${filter}`, params);
  const page = await db.query<MediaRow>(
    `select ${COLUMNS} from media where ${filter}
     order by ${SORT_EXPRESSIONS[args.sort]} ${direction}, id ${direction}
     limit $${params.length + 1} offset $${params.length + 2}`,
    [...params, args.limit, args.offset],
  );
  return { rows: page.rows, total: total.rows[0]?.total ?? 0 };
}

/** Deletes one media row of the scope (a trigger queues its object's purge); returns it, or null when there was none. */
export async function deleteMedia(db: Queryable, scope: MediaScope, id: string): Promise<MediaRow | null> {
  const result = await db.query<MediaRow>(
    `delete from media where project_id = $1 and environment_id = $2 and id = $3 returning ${COLUMNS}`,
    [scope.projectId, scope.environmentId, id],
  );
  return result.rows[0] ?? null;
}

/** A queued purge leased to this process: delete the object, then the entry (migration 0012). */
export interface MediaPurgeRow {
  id: string;
  storageKey: string;
  /** Attempts so far, this one included. */
  attempts: number;
}

/**
 * Leases up to `limit` due purge entries for `leaseMs`: entries another process is claiming are
 * skipped (FOR UPDATE SKIP LOCKED), and one whose lease ran out (its process died) is due again.
 */
export async function claimDueMediaPurges(
  db: Queryable,
  claim: { limit: number; leaseMs: number },
): Promise<MediaPurgeRow[]> {
  const result = await db.query<MediaPurgeRow>(
    `with due as materialized (
       select id from media_purge_queue where next_attempt_at <= now()
       order by next_attempt_at, id
       limit $1
       for update skip locked
     )
     update media_purge_queue q
     set next_attempt_at = now() + $2::int * interval '1 millisecond', attempts = q.attempts + 1
     from due where q.id = due.id
     returning q.id::text as id, q.storage_key as "storageKey", q.attempts`,
    [claim.limit, claim.leaseMs],
  );
  return result.rows;
}

/** Removes purge entries whose objects are deleted. */
export async function deleteMediaPurges(db: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query('delete from media_purge_queue where id = any($1::bigint[])', [ids]);
}

/** Removes the purge entries of one storage key (its object is deleted). */
export async function deleteMediaPurgesByKey(db: Queryable, storageKey: string): Promise<void> {
  await db.query('delete from media_purge_queue where storage_key = $1', [storageKey]);
}

/** Records a failed purge and when to try it again. */
export async function deferMediaPurge(
  db: Queryable,
  failure: { id: string; delayMs: number; error: string },
): Promise<void> {
  await db.query(
    `update media_purge_queue set next_attempt_at = now() + $2::int * interval '1 millisecond', last_error = $3
     where id = $1::bigint`,
    [failure.id, failure.delayMs, failure.error],
  );
}

/** Milliseconds until the next purge entry falls due (0 or less: due now), or null when the queue is empty. */
export async function findMsUntilNextMediaPurge(db: Queryable): Promise<number | null> {
  const result = await db.query<{ ms: number | null }>(
    `select (extract(epoch from min(next_attempt_at) - now()) * 1000)::float8 as ms from media_purge_queue`,
  );
  return result.rows[0]?.ms ?? null;
}

/**
 * The raw `mediaImageMaxBytes` value of the project's settings (null when unset), read fresh:
 * the target cache may hold an older copy of the settings.
 */
export async function findProjectMediaImageMaxBytes(db: Queryable, projectId: string): Promise<unknown> {
  const result = await db.query<{ value: unknown }>(
    `select settings -> 'mediaImageMaxBytes' as value from projects where id = $1`,
    [projectId],
  );
  return result.rows[0]?.value ?? null;
}

/** Escapes `\`, `%` and `_` so a search term matches itself and nothing else under `escape '\'`. */
function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (char) => `\\${char}`);
}
