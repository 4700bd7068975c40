import { ROLE_SCOPES, type Role, SCOPES, type Scope } from '@cms/core';
import type { Principal } from '../../http/request-context.js';
import type { ApiKeyRow } from '../../storage/repositories/api-keys.repository.js';
import type { GrantRow } from '../../storage/repositories/grants.repository.js';
import { allowlistAdmits, apiKeyPrincipal } from './api-key-principal.js';
import { applicableGrant } from './user-principal.js';

const NO_SCOPES: ReadonlySet<Scope> = new Set();

/** A user's role and grants as they are now: what a CLI key's capabilities are checked against. */
export interface AuthorizingUser {
  role: Role;
  grants: readonly GrantRow[];
}

/**
 * The scopes a user holds in one project/environment, or project-wide when `environment` is null
 * (admin: all; else the applicable grant's role, as for sessions).
 */
export function userScopesIn(user: AuthorizingUser, project: string, environment: string | null): ReadonlySet<Scope> {
  if (user.role === 'admin') return new Set(SCOPES);
  const grant = applicableGrant(user.grants, project, environment);
  return grant ? new Set(ROLE_SCOPES[grant.role]) : NO_SCOPES;
}

/**
 * The principal of a `cms_key_cli_` key: the key's scopes in its one project/environment, cut down
 * to what the user who authorized it holds there now (decisions.md §5: never more, also after the
 * user's role or grants change). Outside that project it holds nothing.
 */
export function cliKeyPrincipal(
  key: Pick<ApiKeyRow, 'id' | 'label' | 'scopes' | 'contextAllowlist'>,
  user: AuthorizingUser,
): Principal {
  const base = apiKeyPrincipal(key);
  const keyScopes = new Set(key.scopes);
  return {
    ...base,
    canAccess: (project, environment) =>
      allowlistAdmits(key.contextAllowlist, project, environment) &&
      (user.role === 'admin' ||
        (environment === null
          ? user.grants.some((grant) => grant.project === project)
          : applicableGrant(user.grants, project, environment) !== null)),
    scopesIn: (target) => {
      if (target === null) return NO_SCOPES;
      if (!allowlistAdmits(key.contextAllowlist, target.projectSlug, target.environmentName)) return NO_SCOPES;
      const held = userScopesIn(user, target.projectSlug, target.environmentName);
      return new Set([...keyScopes].filter((scope) => held.has(scope)));
    },
  };
}
