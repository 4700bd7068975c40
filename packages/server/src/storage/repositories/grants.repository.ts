import type { Role } from '@cms/core';
import type { Queryable } from '../db.js';

/** A grant as the wire shows it: project slug, environment name or `*`, role. */
export interface GrantRow {
  project: string;
  environment: string;
  role: Role;
}

/** A grant to insert, by ids (environment null means every environment). */
export interface NewGrant {
  projectId: string;
  environmentId: string | null;
  role: Role;
}

/** Lists a user's grants by project slug, then environment (`*` first). */
export async function listGrantsOfUser(db: Queryable, userId: string): Promise<GrantRow[]> {
  const result = await db.query<GrantRow>(
    `select p.slug as project, coalesce(e.name, '*') as environment, g.role
     from user_grants g
     join projects p on p.id = g.project_id
     left join environments e on e.id = g.environment_id
     where g.user_id = $1
     order by p.slug, e.name nulls first`,
    [userId],
  );
  return result.rows;
}

/** Deletes every grant of a user (before inserting the replacement list). */
export async function deleteGrantsOfUser(db: Queryable, userId: string): Promise<void> {
  await db.query('delete from user_grants where user_id = $1', [userId]);
}

/** Inserts grants of one user. */
export async function insertGrants(db: Queryable, userId: string, grants: readonly NewGrant[]): Promise<void> {
  for (const grant of grants) {
    await db.query('insert into user_grants (user_id, project_id, environment_id, role) values ($1, $2, $3, $4)', [
      userId,
      grant.projectId,
      grant.environmentId,
      grant.role,
    ]);
  }
}
