import { isSqlState, type Queryable, READ_ONLY, SQLSTATE } from '../db.js';

/** An environment row. */
export interface EnvironmentRow {
  id: string;
  projectId: string;
  name: string;
  extendsId: string | null;
  extendsName: string | null;
  isDefault: boolean;
  createdAt: Date;
}

const SELECT = `select e.id, e.project_id as "projectId", e.name, e.extends_id as "extendsId",
  base.name as "extendsName", e.is_default as "isDefault", e.created_at as "createdAt"
  from environments e left join environments base on base.id = e.extends_id and base.project_id = e.project_id`;

/** Finds an environment of a project by name, or null. */
export async function findEnvironment(db: Queryable, projectId: string, name: string): Promise<EnvironmentRow | null> {
  // Read by every request's access steps: a connection that failed under it is replaced (QueryOptions).
  const result = await db.query<EnvironmentRow>(
    `${SELECT} where e.project_id = $1 and e.name = $2`,
    [projectId, name],
    READ_ONLY,
  );
  return result.rows[0] ?? null;
}

/** Lists a project's environments, default first, then by name. */
export async function listEnvironments(db: Queryable, projectId: string): Promise<EnvironmentRow[]> {
  const result = await db.query<EnvironmentRow>(
    `${SELECT} where e.project_id = $1 order by e.is_default desc, e.name`,
    [projectId],
  );
  return result.rows;
}

/** Inserts an environment. */
export async function insertEnvironment(
  db: Queryable,
  row: { id: string; projectId: string; name: string; extendsId: string | null; isDefault: boolean },
): Promise<void> {
  await db.query(
    'insert into environments (id, project_id, name, extends_id, is_default) values ($1, $2, $3, $4, $5)',
    [row.id, row.projectId, row.name, row.extendsId, row.isDefault],
  );
}

/**
 * Deletes a non-default environment; returns false when none matched. Everything in it goes with
 * the cascade; its media rows' storage keys land in `media_purge_queue` (trigger of migration 0012).
 */
export async function deleteEnvironment(db: Queryable, projectId: string, name: string): Promise<boolean> {
  const result = await db.query('delete from environments where project_id = $1 and name = $2 and not is_default', [
    projectId,
    name,
  ]);
  return result.rowCount > 0;
}

/** Inserts an environment; returns false when the project already has one with this name. */
export async function insertEnvironmentIfNameFree(
  db: Queryable,
  row: { id: string; projectId: string; name: string; extendsId: string | null; isDefault: boolean },
): Promise<boolean> {
  try {
    await insertEnvironment(db, row);
    return true;
  } catch (error: unknown) {
    if (isSqlState(error, SQLSTATE.uniqueViolation, 'environments_project_name_key')) return false;
    throw error;
  }
}

/**
 * Deletes a non-default environment: `deleted`, `missing` (no such non-default environment), or
 * `referenced` (another row still points at it without cascading, such as an extending environment).
 */
export async function deleteEnvironmentIfUnreferenced(
  db: Queryable,
  projectId: string,
  name: string,
): Promise<'deleted' | 'missing' | 'referenced'> {
  try {
    return (await deleteEnvironment(db, projectId, name)) ? 'deleted' : 'missing';
  } catch (error: unknown) {
    if (isSqlState(error, SQLSTATE.foreignKeyViolation)) return 'referenced';
    throw error;
  }
}
