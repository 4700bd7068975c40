import type { Queryable } from '../db.js';
import type { MediaScope } from './media.repository.js';

/** A stored image variant (migration 0035): its asset, parameter hash and object. */
export interface MediaVariantRow {
  mediaId: string;
  variant: string;
  storageKey: string;
  contentType: string;
  sizeBytes: number;
}

/**
 * Records a variant whose object is stored. Returns false when its asset is gone (deleted while the
 * variant was computed): the caller then deletes the object, which no purge would otherwise reach.
 * A variant recorded already (another process computed it too) counts as recorded.
 */
export async function insertMediaVariant(db: Queryable, scope: MediaScope, row: MediaVariantRow): Promise<boolean> {
  const result = await db.query<{ recorded: boolean }>(
    `with asset as (
       select id from media where project_id = $1 and environment_id = $2 and id = $3
     ), inserted as (
       insert into media_variants (media_id, variant, project_id, environment_id, storage_key, content_type, size_bytes)
       select id, $4, $1, $2, $5, $6, $7 from asset
       on conflict (media_id, variant) do nothing
       returning 1
     )
     select exists (select 1 from asset) as recorded`,
    [scope.projectId, scope.environmentId, row.mediaId, row.variant, row.storageKey, row.contentType, row.sizeBytes],
  );
  return result.rows[0]?.recorded === true;
}

/** The storage keys of one asset's variants. */
export async function listMediaVariantKeys(db: Queryable, scope: MediaScope, mediaId: string): Promise<string[]> {
  const result = await db.query<{ storageKey: string }>(
    `select storage_key as "storageKey" from media_variants
     where project_id = $1 and environment_id = $2 and media_id = $3`,
    [scope.projectId, scope.environmentId, mediaId],
  );
  return result.rows.map((row) => row.storageKey);
}
