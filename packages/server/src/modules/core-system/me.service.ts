import { CmsError, capabilitiesFromScopes, type Me } from '@cms/core';
import { type RequestContext, scopeTargetOf } from '../../http/request-context.js';
import { isUserPrincipal } from './user-principal.js';

/** Wire shape of `GET /api/v1/me` (interface.md "Principal"). */
export type MeView = Me;

/** Who the caller is and what it may do in the active project and environment. */
export function createMeService() {
  return {
    me(ctx: RequestContext): MeView {
      const { principal } = ctx;
      const capabilities = capabilitiesFromScopes(principal.scopesIn(scopeTargetOf(ctx)));
      if (isUserPrincipal(principal)) {
        // In a project, `role` is the one that applies there (admin, or the grant's); else the user's own.
        const where = scopeTargetOf(ctx);
        const role = (where && principal.roleIn(where.projectSlug, where.environmentName)) ?? principal.role;
        return { principalType: 'user', principalId: principal.id, email: principal.email, role, capabilities };
      }
      if (principal.type === 'apiKey') {
        return { principalType: 'apiKey', principalId: principal.id, label: principal.label ?? '', capabilities };
      }
      throw new CmsError('UNAUTHORIZED');
    },
  };
}

/** The me service's type, for action factories. */
export type MeService = ReturnType<typeof createMeService>;
