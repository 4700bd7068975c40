import { isSqlState, type Queryable, READ_ONLY, SQLSTATE } from '../db.js';

/** A project row. */
export interface ProjectRow {
  id: string;
  slug: string;
  name: string;
  settings: Record<string, unknown>;
  createdAt: Date;
}

const COLUMNS = 'id, slug, name, settings, created_at as "createdAt"';

/** Finds a project by slug, or null. */
export async function findProjectBySlug(db: Queryable, slug: string): Promise<ProjectRow | null> {
  // Read by every request's access steps: a connection that failed under it is replaced (QueryOptions).
  const result = await db.query<ProjectRow>(`select ${COLUMNS} from projects where slug = $1`, [slug], READ_ONLY);
  return result.rows[0] ?? null;
}

/** Lists projects, optionally only those with the given slugs, ordered by slug. */
export async function listProjects(db: Queryable, slugs: readonly string[] | null = null): Promise<ProjectRow[]> {
  const result =
    slugs === null
      ? await db.query<ProjectRow>(`select ${COLUMNS} from projects order by slug`)
      : await db.query<ProjectRow>(`select ${COLUMNS} from projects where slug = any($1::text[]) order by slug`, [
          slugs,
        ]);
  return result.rows;
}

/** Counts projects (first-start bootstrap). */
export async function countProjects(db: Queryable): Promise<number> {
  const result = await db.query<{ count: number }>('select count(*)::int as count from projects');
  return result.rows[0]?.count ?? 0;
}

/** Inserts a project. */
export async function insertProject(
  db: Queryable,
  row: { id: string; slug: string; name: string },
): Promise<ProjectRow> {
  const result = await db.query<ProjectRow>(
    `insert into projects (id, slug, name) values ($1, $2, $3) returning ${COLUMNS}`,
    [row.id, row.slug, row.name],
  );
  return result.rows[0] as ProjectRow;
}

/** Inserts a project; returns null when the slug is taken. */
export async function insertProjectIfSlugFree(
  db: Queryable,
  row: { id: string; slug: string; name: string },
): Promise<ProjectRow | null> {
  try {
    return await insertProject(db, row);
  } catch (error: unknown) {
    if (isSqlState(error, SQLSTATE.uniqueViolation, 'projects_slug_key')) return null;
    throw error;
  }
}

/**
 * Sets (or, with null, removes) one key of a project's settings; returns the new settings, or null
 * when no project has this slug.
 */
export async function setProjectSetting(
  db: Queryable,
  slug: string,
  key: string,
  value: unknown,
): Promise<Record<string, unknown> | null> {
  const result = await db.query<{ settings: Record<string, unknown> }>(
    `update projects
     set settings = case when $3::jsonb is null then settings - $2 else settings || jsonb_build_object($2::text, $3::jsonb) end
     where slug = $1
     returning settings`,
    [slug, key, value === null ? null : JSON.stringify(value)],
  );
  return result.rows[0]?.settings ?? null;
}
