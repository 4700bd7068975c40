import type { ResolvedSchema } from '@cms/core';
import type { Queryable } from '../db.js';

/**
 * The schema synced to one environment: its whole schema, or for an environment that extends
 * another its layer over the base (schema overlays, docs/api.md "Schema registry").
 */
export interface SchemaRow {
  environmentId: string;
  projectId: string;
  schemaHash: string;
  resolvedSchema: ResolvedSchema;
  /**
   * The locales of the config this layer was synced from, as its raw snapshot holds them (the
   * environment's own `locales` when the config gives it one): whatever the client sent, unchecked.
   */
  configLocales: unknown;
  syncedAt: Date;
  syncedBy: string;
}

/** One layer of an environment's `extends` chain without its schema: enough to tell whether a cached merge is current. */
export type SchemaLayerStamp = Pick<SchemaRow, 'environmentId' | 'schemaHash' | 'syncedAt'>;

/** Longest `extends` chain followed; environments are created on existing bases, so chains are short and acyclic. */
const MAX_CHAIN_DEPTH = 16;

/**
 * The environment and the ones it extends, with their distance from it and its name ($1 project,
 * $2 environment).
 */
const CHAIN = `with recursive chain (id, extends_id, depth, target_name) as (
       select id, extends_id, 0, name from environments where id = $2 and project_id = $1
       union all
       select e.id, e.extends_id, chain.depth + 1, chain.target_name from environments e
       join chain on e.id = chain.extends_id where e.project_id = $1 and chain.depth < ${MAX_CHAIN_DEPTH}
     )`;

/**
 * The synced layers of an environment's `extends` chain, the root's first and the environment's own
 * (if any) last: its effective schema is their merge (core `mergeSchemaLayers`).
 */
export async function listSchemaLayers(
  db: Queryable,
  scope: { projectId: string; environmentId: string },
): Promise<SchemaRow[]> {
  const result = await db.query<SchemaRow>(
    `${CHAIN}
     select s.environment_id as "environmentId", s.project_id as "projectId", s.schema_hash as "schemaHash",
       s.resolved_schema as "resolvedSchema",
       coalesce(s.raw_config_snapshot #> array['environments', chain.target_name, 'locales'],
         s.raw_config_snapshot -> 'locales') as "configLocales",
       s.synced_at as "syncedAt", s.synced_by as "syncedBy"
     from chain join schema_registry s on s.environment_id = chain.id and s.project_id = $1
     order by chain.depth desc`,
    [scope.projectId, scope.environmentId],
  );
  return result.rows;
}

/** `listSchemaLayers` without the schemas: which layers (hash and sync time) are in force, in the same order. */
export async function listSchemaLayerStamps(
  db: Queryable,
  scope: { projectId: string; environmentId: string },
): Promise<SchemaLayerStamp[]> {
  const result = await db.query<SchemaLayerStamp>(
    `${CHAIN}
     select s.environment_id as "environmentId", s.schema_hash as "schemaHash", s.synced_at as "syncedAt"
     from chain join schema_registry s on s.environment_id = chain.id and s.project_id = $1
     order by chain.depth desc`,
    [scope.projectId, scope.environmentId],
  );
  return result.rows;
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

/** The environment's own synced schema (its layer, never an inherited one), without the schema itself. */
export async function findOwnSchema(
  db: Queryable,
  scope: { projectId: string; environmentId: string },
): Promise<Omit<SchemaRow, 'resolvedSchema' | 'configLocales'> | null> {
  const result = await db.query<Omit<SchemaRow, 'resolvedSchema' | 'configLocales'>>(
    `select s.environment_id as "environmentId", s.project_id as "projectId", s.schema_hash as "schemaHash",
       s.synced_at as "syncedAt", s.synced_by as "syncedBy"
     from schema_registry s where s.project_id = $1 and s.environment_id = $2`,
    [scope.projectId, scope.environmentId],
  );
  return result.rows[0] ?? null;
}

/**
 * Writes the environment's registry row unless it already holds this schema, and appends the sync
 * to its history. Returns false when nothing was written: of two concurrent syncs of one schema,
 * the second finds the first's row (the primary key makes it wait for that commit). "This schema"
 * is the same hash and the same text of schema and snapshot: the columns are json (migration 0018), so
 * a schema whose only change is the order of its fields (the hash ignores key order) is written too,
 * and so is a new snapshot (its locales are what `GET /schema` answers). The service decides first
 * whether a sync changes anything; this guards against concurrent syncs.
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
     where s.project_id = $1
       and (s.schema_hash <> excluded.schema_hash or s.resolved_schema::text <> excluded.resolved_schema::text
         or s.raw_config_snapshot::text <> excluded.raw_config_snapshot::text)
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

/**
 * Gives a new environment ($3) a registry row holding `schema`, with the raw snapshot and sync
 * stamp of the layer `fromEnvironmentId` ($2) synced (an environment clone). Returns the rows written.
 */
export async function insertSchemaCopy(
  db: Queryable,
  scope: { projectId: string; fromEnvironmentId: string; toEnvironmentId: string },
  schema: { schemaHash: string; resolvedSchema: ResolvedSchema },
): Promise<number> {
  const result = await db.query(
    `insert into schema_registry (environment_id, project_id, schema_hash, resolved_schema, raw_config_snapshot,
       synced_at, synced_by)
     select $3::uuid, s.project_id, $4, $5, s.raw_config_snapshot, s.synced_at, s.synced_by
     from schema_registry s
     where s.project_id = $1 and s.environment_id = $2
       and exists (select 1 from environments t where t.id = $3::uuid and t.project_id = $1)`,
    [
      scope.projectId,
      scope.fromEnvironmentId,
      scope.toEnvironmentId,
      schema.schemaHash,
      JSON.stringify(schema.resolvedSchema),
    ],
  );
  return result.rowCount;
}
