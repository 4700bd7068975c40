import { CmsError, ROLE_SCOPES, type Role, SCOPES, type Scope } from '@cms/core';
import type { Principal } from '../../http/request-context.js';
import type { AllowlistEntry } from '../../storage/repositories/api-keys.repository.js';
import type { GrantRow } from '../../storage/repositories/grants.repository.js';

/**
 * No escalation (docs/access-control.md "Granting"): a caller can give, and act on, only what it
 * holds itself. A `*` in a project or environment is covered only by a `*` the caller holds.
 */

/** The scopes the principal holds in a project/environment pair, `*` included. */
function scopesHeldAt(principal: Principal, project: string, environment: string): ReadonlySet<Scope> {
  if (!principal.canAccess(project, environment)) return new Set();
  return principal.scopesIn({ projectSlug: project, environmentName: environment });
}

/** Does the principal hold every scope in every project and environment (an admin)? */
export function holdsEverything(principal: Principal): boolean {
  const instance = principal.scopesIn(null);
  const everywhere = scopesHeldAt(principal, '*', '*');
  return SCOPES.every((scope) => instance.has(scope) && everywhere.has(scope));
}

/** What a key would hold that the principal does not: scopes and allowlist entries (empty when none). */
export function keyExcess(
  principal: Principal,
  key: { scopes: readonly Scope[]; contextAllowlist: readonly AllowlistEntry[] },
): { scopes: Scope[]; contextAllowlist: AllowlistEntry[] } {
  const instance = principal.scopesIn(null);
  const scopes = key.scopes.filter((scope) => !instance.has(scope));
  const contextAllowlist = key.contextAllowlist.filter((entry) => {
    const held = scopesHeldAt(principal, entry.project, entry.environment);
    return !principal.canAccess(entry.project, entry.environment) || key.scopes.some((scope) => !held.has(scope));
  });
  return { scopes, contextAllowlist };
}

/** Throws FORBIDDEN when a new key would hold more than its creator. */
export function assertCanIssueKey(
  principal: Principal,
  key: { scopes: readonly Scope[]; contextAllowlist: readonly AllowlistEntry[] },
): void {
  const excess = keyExcess(principal, key);
  if (excess.scopes.length > 0 || excess.contextAllowlist.length > 0) {
    throw new CmsError('FORBIDDEN', 'A key cannot hold more than its creator: drop the scopes or contexts you lack.', {
      excess,
    });
  }
}

/** May the principal give this role in this project/environment (or as a user's own role, project null)? */
export function canGrantRole(principal: Principal, role: Role, project: string | null, environment: string): boolean {
  if (project === null) return role !== 'admin' || holdsEverything(principal);
  const held = scopesHeldAt(principal, project, environment);
  return ROLE_SCOPES[role].every((scope) => held.has(scope));
}

/** Throws FORBIDDEN unless the principal may give this role there; unknown projects answer the same. */
export function assertCanGrantRole(principal: Principal, role: Role, project: string | null, environment = '*'): void {
  if (canGrantRole(principal, role, project, environment)) return;
  throw new CmsError(
    'FORBIDDEN',
    project === null
      ? 'Only an administrator can make another administrator.'
      : `You cannot give the ${role} role in this project.`,
  );
}

/**
 * Throws FORBIDDEN unless the principal holds at least what the user holds: changing the password,
 * role or grants of someone with more access would hand that access to the caller.
 */
export function assertCanManageUser(principal: Principal, user: { role: Role; grants: readonly GrantRow[] }): void {
  const allowed =
    (user.role !== 'admin' || holdsEverything(principal)) &&
    user.grants.every((grant) => canGrantRole(principal, grant.role, grant.project, grant.environment));
  if (!allowed) throw new CmsError('FORBIDDEN', 'This user holds access you do not have.');
}
