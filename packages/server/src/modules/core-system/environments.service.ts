import { randomUUID } from 'node:crypto';
import {
  type ActionInput,
  CmsError,
  type Environment,
  type environmentsCreateRoute,
  invalidInput,
  type Serializable,
} from '@cms/core';
import type { ProjectContext, ProjectTarget, RequestContext } from '../../http/request-context.js';
import { type Db, type Queryable, withTransaction } from '../../storage/db.js';
import {
  deleteEnvironmentIfUnreferenced,
  type EnvironmentRow,
  findEnvironment,
  insertEnvironmentIfNameFree,
  listEnvironments,
} from '../../storage/repositories/environments.repository.js';
import { MEDIA_PURGE_CHANNEL } from '../../storage/repositories/media.repository.js';
import type { InvalidationBus } from '../../tenancy/invalidation.js';
import type { TargetResolver } from '../../tenancy/target-resolver.js';
import type { ServiceRegistry } from '../module-types.js';
import { CONTENT_ENVIRONMENTS_SERVICE, type ContentEnvironments } from '../registry-services.js';

/** Wire shape of an environment. */
export type EnvironmentView = Serializable<Environment>;

/** Turns a row into its wire shape. */
export function toEnvironmentView(row: EnvironmentRow): EnvironmentView {
  return { name: row.name, extends: row.extendsName, isDefault: row.isDefault, createdAt: row.createdAt };
}

/** Input of `POST /api/v1/environments` (core's contract); `cloneFrom` is carried out by the content area. */
type CreateEnvironmentInput = ActionInput<typeof environmentsCreateRoute>['body'];

/**
 * A name taken in the project: CONFLICT (409) like any clash with what the server holds, naming the
 * field, the project and the environment, and the ways out (another name, delete, promote into it).
 */
function environmentExists(projectSlug: string, name: string): CmsError {
  return new CmsError(
    'CONFLICT',
    `Environment "${name}" already exists in project "${projectSlug}": choose another name, or use the existing one ` +
      `(delete it first with \`DELETE /api/v1/environments/${name}\` to start over, or bring content into it with ` +
      `\`cms env promote <source> ${name}\`).`,
    {
      fields: { 'body.name': 'already exists in this project: choose another name, or delete or promote into it' },
      project: projectSlug,
      environment: name,
    },
  );
}

/** Environments of a project, as far as the caller may see them; created and deleted with `settings:manage`. */
export function createEnvironmentsService(deps: {
  db: Db;
  bus: InvalidationBus;
  targets: TargetResolver;
  registry: ServiceRegistry;
}) {
  // Every process's target cache learns of the change when it commits (tenancy/invalidation.ts).
  const publishTargets = (tx: Queryable) => deps.bus.publish(tx, 'targets');

  /** The environment to clone and the content service that clones it, or INVALID_INPUT. */
  async function findCloneSource(ctx: RequestContext, project: ProjectTarget, name: string) {
    // Looked up per request: domain.content is set up after core.system and may not be loaded.
    const content = deps.registry.find<ContentEnvironments>(CONTENT_ENVIRONMENTS_SERVICE);
    if (!content)
      throw invalidInput({ 'body.cloneFrom': 'cloning needs the domain.content module, which is not loaded' });
    const source = ctx.principal.canAccess(project.projectSlug, name)
      ? await findEnvironment(deps.db, project.projectId, name)
      : null;
    if (!source) throw invalidInput({ 'body.cloneFrom': `no environment "${name}" in this project` });
    return { content, source };
  }

  return {
    async list(ctx: RequestContext): Promise<EnvironmentView[]> {
      const project = ctx.project;
      if (!project) return [];
      const rows = await listEnvironments(deps.db, project.projectId);
      return rows.filter((row) => ctx.principal.canAccess(project.projectSlug, row.name)).map(toEnvironmentView);
    },

    /** Creates an environment; `extends` names an existing one of the same project (schema overlays). */
    async create(ctx: ProjectContext, input: CreateEnvironmentInput): Promise<EnvironmentView> {
      const { project } = ctx;
      let extendsId: string | null = null;
      if (input.extends !== undefined) {
        const base = ctx.principal.canAccess(project.projectSlug, input.extends)
          ? await findEnvironment(deps.db, project.projectId, input.extends)
          : null;
        if (!base) throw invalidInput({ 'body.extends': `no environment "${input.extends}" in this project` });
        extendsId = base.id;
      }
      const clone = input.cloneFrom === undefined ? null : await findCloneSource(ctx, project, input.cloneFrom);
      const id = randomUUID();
      return withTransaction(deps.db, async (tx) => {
        const inserted = await insertEnvironmentIfNameFree(tx, {
          id,
          projectId: project.projectId,
          name: input.name,
          extendsId,
          isDefault: false,
        });
        if (!inserted) throw environmentExists(project.projectSlug, input.name);
        if (clone) {
          await clone.content.cloneInto(tx, {
            projectId: project.projectId,
            sourceEnvironmentId: clone.source.id,
            targetEnvironmentId: id,
          });
        }
        await publishTargets(tx);
        const row = await findEnvironment(tx, project.projectId, input.name);
        if (!row) throw new Error(`environment ${input.name} vanished inside its own transaction`);
        return toEnvironmentView(row);
      });
    },

    /**
     * Deletes an environment with everything in it. The default one cannot go, nor one that
     * another environment extends. Callers who may not see it get FORBIDDEN, never a hint.
     * Its media rows go with the cascade, which queues their objects' purge in this transaction
     * (migration 0012); the purge worker, woken when it commits, deletes the objects.
     */
    async remove(ctx: ProjectContext, name: string): Promise<{ deleted: true; name: string }> {
      const { project } = ctx;
      if (!ctx.principal.canAccess(project.projectSlug, name)) {
        throw new CmsError('FORBIDDEN', 'You have no access to this environment.');
      }
      const environments = await listEnvironments(deps.db, project.projectId);
      const target = environments.find((row) => row.name === name);
      if (!target) {
        throw new CmsError('ENVIRONMENT_NOT_FOUND', `No environment "${name}" in project "${project.projectSlug}".`);
      }
      if (target.isDefault) {
        throw invalidInput({ 'params.name': 'is the default environment, which cannot be deleted' });
      }
      const child = environments.find((row) => row.extendsId === target.id);
      if (child) throw invalidInput({ 'params.name': `is extended by "${child.name}": delete that one first` });
      await withTransaction(deps.db, async (tx) => {
        const outcome = await deleteEnvironmentIfUnreferenced(tx, project.projectId, name);
        if (outcome === 'missing') {
          throw new CmsError('ENVIRONMENT_NOT_FOUND', `No environment "${name}" in project "${project.projectSlug}".`);
        }
        if (outcome === 'referenced') {
          throw invalidInput({ 'params.name': 'is still in use: delete what extends it first' });
        }
        await publishTargets(tx);
        await deps.db.notify(tx, MEDIA_PURGE_CHANNEL, '');
      });
      // This process stops resolving it at once; the others when the invalidation arrives.
      deps.targets.forget();
      return { deleted: true as const, name };
    },
  };
}

/** The environments service's type, for action factories. */
export type EnvironmentsService = ReturnType<typeof createEnvironmentsService>;
