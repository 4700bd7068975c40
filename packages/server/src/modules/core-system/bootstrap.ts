import { randomUUID } from 'node:crypto';
import type { Db } from '../../storage/db.js';
import { insertEnvironment } from '../../storage/repositories/environments.repository.js';
import { countProjects, insertProject } from '../../storage/repositories/projects.repository.js';

/** The environment every new project starts with (decisions.md §1, §4). */
export const DEFAULT_ENVIRONMENT = 'production';

const BOOTSTRAP_LOCK_KEY = 7_312_002;

/** At first start, creates the default project and its `production` environment; once, even with two processes. */
export async function bootstrapDefaultProject(db: Db, slug: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK_KEY]);
    if ((await countProjects(tx)) > 0) return false;
    const project = await insertProject(tx, { id: randomUUID(), slug, name: slug });
    await insertEnvironment(tx, {
      id: randomUUID(),
      projectId: project.id,
      name: DEFAULT_ENVIRONMENT,
      extendsId: null,
      isDefault: true,
    });
    return true;
  });
}
