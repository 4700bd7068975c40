import { CmsError } from '@cms/core';
import type { FastifyRequest } from 'fastify';
import type { EnvironmentRow } from '../storage/repositories/environments.repository.js';
import type { ProjectRow } from '../storage/repositories/projects.repository.js';
import type { TargetResolver } from '../tenancy/target-resolver.js';
import type { Principal, Target } from './request-context.js';
import { readTargetHeaders } from './target-guard.js';

/**
 * Resolves the routing headers after authentication. Unknown names answer PROJECT_NOT_FOUND or
 * ENVIRONMENT_NOT_FOUND only to callers who could see them if they existed; others get FORBIDDEN,
 * never a hint (decisions.md §2).
 */
export function createResolveTarget(resolver: TargetResolver) {
  return async function resolveTarget(request: FastifyRequest): Promise<void> {
    const action = request.routeOptions.config.action;
    if (!action || action.target === 'none') return;
    const { project: slug, environment: name } = readTargetHeaders(request);
    if (!slug) return;
    const { principal } = request.ctx;
    const needsEnvironment = action.target === 'environment' || (action.target !== 'project' && name !== null);

    if (!principal.canAccess(slug, null)) throw new CmsError('FORBIDDEN', 'You have no access to this project.');
    const project = await resolver.findProject(slug);
    if (!project) throw new CmsError('PROJECT_NOT_FOUND', `No project "${slug}".`);
    request.ctx.project = { projectId: project.id, projectSlug: project.slug };
    if (!needsEnvironment || !name) return;

    if (!principal.canAccess(slug, name)) throw new CmsError('FORBIDDEN', 'You have no access to this environment.');
    const environment = await resolver.findEnvironment(project, name);
    if (!environment) throw new CmsError('ENVIRONMENT_NOT_FOUND', `No environment "${name}" in project "${slug}".`);
    request.ctx.target = targetOf(project, environment);
  };
}

/** The request's target: a project and one of its environments. */
export function targetOf(project: ProjectRow, environment: EnvironmentRow): Target {
  return {
    projectId: project.id,
    projectSlug: project.slug,
    environmentId: environment.id,
    environmentName: environment.name,
    extendsEnvironmentId: environment.extendsId,
    isDefaultEnvironment: environment.isDefault,
  };
}

/**
 * The target the access steps would resolve for a project and environment name, from the target cache
 * alone; undefined when only a query could tell, or when the steps would refuse (no access, unknown).
 */
export function resolveKnownTarget(
  resolver: TargetResolver,
  principal: Principal,
  slug: string,
  name: string,
): Target | undefined {
  if (!principal.canAccess(slug, null) || !principal.canAccess(slug, name)) return undefined;
  const project = resolver.cachedProject(slug);
  const environment = project ? resolver.cachedEnvironment(project, name) : undefined;
  return project && environment ? targetOf(project, environment) : undefined;
}
