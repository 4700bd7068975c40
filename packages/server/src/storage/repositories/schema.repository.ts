import type { ResolvedSchema } from '@cms/core';
import type { Queryable } from '../db.js';

/** The schema synced to one environment. */
export interface SchemaRow {
  environmentId: string;
  projectId: string;
  schemaHash: string;
  resolvedSchema: ResolvedSchema;
  syncedAt: Date;
  syncedBy: string;
}

/**
 * The schema in force for an environment: its own when synced, else the nearest environment it
 * extends (schema overlays: an environment inherits its base until it syncs its own).
 */
export async function findEffectiveSchema(
  db: Queryable,
  scope: { projectId: string; environmentId: string },
): Promise<SchemaRow | null> {
  const result = await db.query<SchemaRow>(
    `with recursive chain (id, extends_id, depth) as (
       select id, extends_id, 0 from environments where id = $2 and project_id = $1
       union all
       select e.id, e.extends_id, chain.depth + 1 from environments e
       join chain on e.id = chain.extends_id where e.project_id = $1 and chain.depth < 16
     )
     select s.environment_id as "environmentId", s.project_id as "projectId", s.schema_hash as "schemaHash",
       s.resolved_schema as "resolvedSchema", s.synced_at as "syncedAt", s.synced_by as "syncedBy"
     from chain join schema_registry s on s.environment_id = chain.id and s.project_id = $1
     order by chain.depth limit 1`,
    [scope.projectId, scope.environmentId],
  );
  return result.rows[0] ?? null;
}

/** What one sync writes: the registry row of the environment and a history row. */
export interface SchemaSync {
  historyId: string;
  schemaHash: string;
  resolvedSchema: ResolvedSchema;
  rawConfigSnapshot: Record<string, unknown>;
  syncedAt: Date;
  syncedBy: string;
}

/** The hash in force for an environment (its own or inherited), without loading the schema. */
export async function findEffectiveSchemaHash(
  db: Queryable,
  scope: { projectId: string; environmentId: string },
): Promise<string | null> {
  const result = await db.query<{ schemaHash: string }>(
    `with recursive chain (id, extends_id, depth) as (
       select id, extends_id, 0 from environments where id = $2 and project_id = $1
       union all
       select e.id, e.extends_id, chain.depth + 1 from environments e
       join chain on e.id = chain.extends_id where e.project_id = $1 and chain.depth < 16
     )
     select s.schema_hash as "schemaHash"
     from chain join schema_registry s on s.environment_id = chain.id and s.project_id = $1
     order by chain.depth limit 1`,
    [scope.projectId, scope.environmentId],
  );
  return result.rows[0]?.schemaHash ?? null;
}

/** The environment's own synced schema (not an inherited one), without the schema itself. */
export async function findOwnSchema(
  db: Queryable,
  scope: { projectId: string; environmentId: string },
): Promise<Omit<SchemaRow, 'resolvedSchema'> | null> {
  const result = await db.query<Omit<SchemaRow, 'resolvedSchema'>>(
    `select s.environment_id as "environmentId", s.project_id as "projectId", s.schema_hash as "schemaHash",
       s.synced_at as "syncedAt", s.synced_by as "syncedBy"
     from schema_registry s where s.project_id = $1 and s.environment_id = $2`,
    [scope.projectId, scope.environmentId],
  );
  return result.rows[0] ?? null;
}

/**
 * Writes the environment's registry row unless it already holds this hash, and appends the sync
 * to its history. Returns false when nothing was written: of two concurrent syncs of one schema,
 * the second finds the first's row (the primary key makes it wait for that commit).
 */
export async function saveSchemaIfChanged(
  db: Queryable,
  scope: { projectId: string; environmentId: string },
  sync: SchemaSync,
): Promise<boolean> {
  const resolved = JSON.stringify(sync.resolvedSchema);
  const raw = JSON.stringify(sync.rawConfigSnapshot);
  const written = await db.query(
    `insert into schema_registry as s (environment_id, project_id, schema_hash, resolved_schema, raw_config_snapshot,
       synced_at, synced_by)
     values ($2, $1, $3, $4, $5, $6, $7)
     on conflict (environment_id) do update set schema_hash = excluded.schema_hash,
       resolved_schema = excluded.resolved_schema, raw_config_snapshot = excluded.raw_config_snapshot,
       synced_at = excluded.synced_at, synced_by = excluded.synced_by
     where s.project_id = $1 and s.schema_hash <> excluded.schema_hash
     returning s.environment_id`,
    [scope.projectId, scope.environmentId, sync.schemaHash, resolved, raw, sync.syncedAt, sync.syncedBy],
  );
  if (written.rowCount === 0) return false;
  await db.query(
    `insert into schema_sync_history (id, project_id, environment_id, schema_hash, resolved_schema,
       raw_config_snapshot, synced_at, synced_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      sync.historyId,
      scope.projectId,
      scope.environmentId,
      sync.schemaHash,
      resolved,
      raw,
      sync.syncedAt,
      sync.syncedBy,
    ],
  );
  return true;
}
