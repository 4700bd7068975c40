import { type Grant, invalidInput, notFound } from '@cms/core';
import type { RequestContext } from '../../http/request-context.js';
import type { Db } from '../../storage/db.js';
import { findEnvironment } from '../../storage/repositories/environments.repository.js';
import {
  deleteGrantsOfUser,
  type GrantRow,
  insertGrants,
  listGrantsOfUser,
  type NewGrant,
} from '../../storage/repositories/grants.repository.js';
import { findProjectBySlug } from '../../storage/repositories/projects.repository.js';
import { findUserById } from '../../storage/repositories/users.repository.js';
import { assertCanGrantRole, assertCanManageUser } from './access-rules.js';

/** A user's roles per project (and optionally one environment). */
export function createGrantsService(deps: { db: Db }) {
  return {
    /** The user's grants, as far as the caller may see their projects. */
    async list(ctx: RequestContext, userId: string): Promise<GrantRow[]> {
      if (!(await findUserById(deps.db, userId))) throw notFound('User');
      const grants = await listGrantsOfUser(deps.db, userId);
      return grants.filter((grant) =>
        ctx.principal.canAccess(grant.project, grant.environment === '*' ? null : grant.environment),
      );
    },

    /**
     * Replaces the user's grants with the list. The caller must hold what it gives (else FORBIDDEN,
     * the same for unknown projects) and at least what the user holds now.
     */
    async replace(ctx: RequestContext, userId: string, entries: readonly Grant[]): Promise<GrantRow[]> {
      const seen = new Set<string>();
      entries.forEach((entry, index) => {
        const key = `${entry.project}\u0000${entry.environment}`;
        if (seen.has(key)) throw invalidInput({ [`body.${index}`]: 'repeats a project and environment listed before' });
        seen.add(key);
        assertCanGrantRole(ctx.principal, entry.role, entry.project, entry.environment);
      });
      return deps.db.transaction(async (tx) => {
        const user = await findUserById(tx, userId);
        if (!user) throw notFound('User');
        assertCanManageUser(ctx.principal, { role: user.role, grants: await listGrantsOfUser(tx, userId) });
        const resolved: NewGrant[] = [];
        for (const [index, entry] of entries.entries()) {
          const project = await findProjectBySlug(tx, entry.project);
          if (!project) throw invalidInput({ [`body.${index}.project`]: `no project "${entry.project}"` });
          let environmentId: string | null = null;
          if (entry.environment !== '*') {
            const environment = await findEnvironment(tx, project.id, entry.environment);
            if (!environment) {
              throw invalidInput({
                [`body.${index}.environment`]: `no environment "${entry.environment}" in "${entry.project}"`,
              });
            }
            environmentId = environment.id;
          }
          resolved.push({ projectId: project.id, environmentId, role: entry.role });
        }
        await deleteGrantsOfUser(tx, userId);
        await insertGrants(tx, userId, resolved);
        return listGrantsOfUser(tx, userId);
      });
    },
  };
}

/** The grants service's type, for action factories. */
export type GrantsService = ReturnType<typeof createGrantsService>;
