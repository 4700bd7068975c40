import { CmsError } from '@cms/core';
import type { FastifyRequest } from 'fastify';
import type { TargetResolver } from '../tenancy/target-resolver.js';
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
    request.ctx.target = {
      projectId: project.id,
      projectSlug: project.slug,
      environmentId: environment.id,
      environmentName: environment.name,
      extendsEnvironmentId: environment.extendsId,
      isDefaultEnvironment: environment.isDefault,
    };
  };
}
