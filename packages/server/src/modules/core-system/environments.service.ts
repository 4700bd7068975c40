import type { RequestContext } from '../../http/request-context.js';
import type { Queryable } from '../../storage/db.js';
import { type EnvironmentRow, listEnvironments } from '../../storage/repositories/environments.repository.js';

/** Wire shape of an environment. */
export interface EnvironmentView {
  name: string;
  extends: string | null;
  isDefault: boolean;
  createdAt: Date;
}

/** Turns a row into its wire shape. */
export function toEnvironmentView(row: EnvironmentRow): EnvironmentView {
  return { name: row.name, extends: row.extendsName, isDefault: row.isDefault, createdAt: row.createdAt };
}

/** Environments of a project, as far as the caller may see them. */
export function createEnvironmentsService(deps: { db: Queryable }) {
  return {
    async list(ctx: RequestContext): Promise<EnvironmentView[]> {
      const project = ctx.project;
      if (!project) return [];
      const rows = await listEnvironments(deps.db, project.projectId);
      return rows.filter((row) => ctx.principal.canAccess(project.projectSlug, row.name)).map(toEnvironmentView);
    },
  };
}

/** The environments service's type, for action factories. */
export type EnvironmentsService = ReturnType<typeof createEnvironmentsService>;
