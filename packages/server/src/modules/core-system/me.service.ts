import { type Capabilities, CmsError, capabilitiesFromScopes } from '@cms/core';
import type { RequestContext } from '../../http/request-context.js';
import { isUserPrincipal } from './user-principal.js';

/** Wire shape of `GET /api/v1/me` (interface.md "Principal"). */
export interface MeView {
  principalType: 'apiKey' | 'user';
  principalId: string;
  label?: string;
  email?: string;
  role?: string;
  capabilities: Capabilities;
}

/** The target the request stands in, as scopesIn takes it. */
function targetOf(ctx: RequestContext): { projectSlug: string; environmentName: string | null } | null {
  return ctx.project
    ? { projectSlug: ctx.project.projectSlug, environmentName: ctx.target?.environmentName ?? null }
    : null;
}

/** Who the caller is and what it may do in the active project and environment. */
export function createMeService() {
  return {
    me(ctx: RequestContext): MeView {
      const { principal } = ctx;
      const capabilities = capabilitiesFromScopes(principal.scopesIn(targetOf(ctx)));
      if (isUserPrincipal(principal)) {
        // In a project, `role` is the one that applies there (admin, or the grant's); else the user's own.
        const where = targetOf(ctx);
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
