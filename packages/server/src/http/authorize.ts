import { CmsError } from '@cms/core';
import type { FastifyRequest } from 'fastify';

/** Checks the action's permissions against the principal's scopes in the resolved target. */
export async function authorize(request: FastifyRequest): Promise<void> {
  const action = request.routeOptions.config.action;
  const anyOf = action?.anyPermissions ?? [];
  if (!action || (action.permissions.length === 0 && anyOf.length === 0)) return;
  const { principal, target, project } = request.ctx;
  const scopes = principal.scopesIn(
    project ? { projectSlug: project.projectSlug, environmentName: target?.environmentName ?? null } : null,
  );
  const missing = action.permissions.filter((scope) => !scopes.has(scope));
  if (missing.length > 0) {
    throw new CmsError('FORBIDDEN', `This needs the ${missing.join(', ')} permission.`, { missing });
  }
  if (anyOf.length > 0 && !anyOf.some((scope) => scopes.has(scope))) {
    throw new CmsError('FORBIDDEN', `This needs one of the ${anyOf.join(', ')} permissions.`, { missing: anyOf });
  }
}
