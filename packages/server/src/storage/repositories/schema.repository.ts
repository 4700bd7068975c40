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
