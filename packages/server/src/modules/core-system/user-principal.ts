import { ROLE_SCOPES, type Role, SCOPES, type Scope } from '@cms/core';
import type { Principal } from '../../http/request-context.js';
import type { GrantRow } from '../../storage/repositories/grants.repository.js';

/** The principal of a signed-in user, with what `GET /me` and session listings need beyond Principal. */
export interface UserPrincipal extends Principal {
  readonly type: 'user';
  readonly email: string;
  readonly role: Role;
  /** The public id of the session this request came with. */
  readonly sessionId: string;
  /** The role that applies in a project (and environment), or null when none does. */
  roleIn(projectSlug: string, environmentName: string | null): Role | null;
}

const ALL_SCOPES: ReadonlySet<Scope> = new Set(SCOPES);
const NO_SCOPES: ReadonlySet<Scope> = new Set();
const ROLE_SCOPE_SETS: Record<Role, ReadonlySet<Scope>> = {
  admin: ALL_SCOPES,
  editor: new Set(ROLE_SCOPES.editor),
  author: new Set(ROLE_SCOPES.author),
  viewer: new Set(ROLE_SCOPES.viewer),
};

const userPrincipals = new WeakSet<Principal>();

/** Is this the principal of a signed-in user (made by `userPrincipal`)? */
export function isUserPrincipal(principal: Principal): principal is UserPrincipal {
  return userPrincipals.has(principal);
}

/**
 * The grant that applies in a project/environment: an exact environment grant wins over the
 * project-wide `*` one (docs/access-control.md "Grants"). With no environment named (project-level
 * routes), only the project-wide grant applies.
 */
export function applicableGrant(
  grants: readonly GrantRow[],
  projectSlug: string,
  environmentName: string | null,
): GrantRow | null {
  let projectWide: GrantRow | null = null;
  for (const grant of grants) {
    if (grant.project !== projectSlug) continue;
    if (environmentName !== null && grant.environment === environmentName) return grant;
    if (grant.environment === '*') projectWide = grant;
  }
  return projectWide;
}

/**
 * A user's principal. Role `admin` holds every scope everywhere, inside and outside projects; any
 * other user holds nothing outside a project and, inside one, the scopes of the applicable grant.
 * Everything is computed from what authentication loaded: authorization needs no further query.
 */
export function userPrincipal(user: {
  id: string;
  email: string;
  role: Role;
  sessionId: string;
  csrfToken: string;
  grants: readonly GrantRow[];
}): UserPrincipal {
  const isAdmin = user.role === 'admin';
  const roleIn = (projectSlug: string, environmentName: string | null): Role | null => {
    if (isAdmin) return 'admin';
    return applicableGrant(user.grants, projectSlug, environmentName)?.role ?? null;
  };
  const principal: UserPrincipal = {
    type: 'user',
    id: user.id,
    email: user.email,
    role: user.role,
    sessionId: user.sessionId,
    viaSession: true,
    csrfToken: user.csrfToken,
    roleIn,
    canAccess: (projectSlug, environmentName) => {
      if (isAdmin) return true;
      if (environmentName === null) return user.grants.some((grant) => grant.project === projectSlug);
      return applicableGrant(user.grants, projectSlug, environmentName) !== null;
    },
    scopesIn: (target) => {
      if (isAdmin) return ALL_SCOPES;
      if (target === null) return NO_SCOPES;
      const role = roleIn(target.projectSlug, target.environmentName);
      return role ? ROLE_SCOPE_SETS[role] : NO_SCOPES;
    },
  };
  userPrincipals.add(principal);
  return principal;
}
