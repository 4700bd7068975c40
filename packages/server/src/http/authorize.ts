import { CmsError, type Scope } from '@cms/core';
import type { FastifyRequest } from 'fastify';
import type { AnyAction } from '../actions/define-action.js';
import { type RequestContext, scopeTargetOf } from './request-context.js';

/** The scopes the caller holds where the request stands (its project/environment, or nowhere). */
export function scopesInContext(ctx: RequestContext): ReadonlySet<Scope> {
  return ctx.principal.scopesIn(scopeTargetOf(ctx));
}

/**
 * The rule of every action: all scopes of `permissions`, and one of `anyPermissions` when declared.
 * Returns the error to answer, or null when the scopes suffice.
 */
export function permissionFailure(
  action: Pick<AnyAction, 'permissions' | 'anyPermissions'>,
  scopes: ReadonlySet<Scope>,
): CmsError | null {
  const missing = action.permissions.filter((scope) => !scopes.has(scope));
  if (missing.length > 0) {
    return new CmsError('FORBIDDEN', `This needs the ${missing.join(', ')} permission.`, { missing });
  }
  const anyOf = action.anyPermissions ?? [];
  if (anyOf.length > 0 && !anyOf.some((scope) => scopes.has(scope))) {
    return new CmsError('FORBIDDEN', `This needs one of the ${anyOf.join(', ')} permissions.`, { missing: anyOf });
  }
  return null;
}

/** Checks the action's permissions against the principal's scopes in the resolved target. */
export function authorize(request: FastifyRequest): void {
  const action = request.routeOptions.config.action;
  if (!action || (action.permissions.length === 0 && !action.anyPermissions?.length)) return;
  const failure = permissionFailure(action, scopesInContext(request.ctx));
  if (failure) throw failure;
}
