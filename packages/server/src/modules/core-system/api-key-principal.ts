import type { Scope } from '@cms/core';
import type { Principal } from '../../http/request-context.js';
import type { AllowlistEntry, ApiKeyRow } from '../../storage/repositories/api-keys.repository.js';

const NO_SCOPES: ReadonlySet<Scope> = new Set();

/** Does the allowlist admit this project (and environment, when named)? `*` matches any. */
export function allowlistAdmits(allowlist: readonly AllowlistEntry[], project: string, environment: string | null) {
  return allowlist.some(
    (entry) =>
      (entry.project === '*' || entry.project === project) &&
      (environment === null || entry.environment === '*' || entry.environment === environment),
  );
}

/** The principal of a request authenticated by an API key. */
export function apiKeyPrincipal(key: Pick<ApiKeyRow, 'id' | 'label' | 'scopes' | 'contextAllowlist'>): Principal {
  const scopes: ReadonlySet<Scope> = new Set(key.scopes);
  return {
    type: 'apiKey',
    id: key.id,
    label: key.label,
    viaSession: false,
    canAccess: (project, environment) => allowlistAdmits(key.contextAllowlist, project, environment),
    // Outside any project (users, keys, projects listing) the key's scopes apply as granted.
    scopesIn: (target) =>
      target === null || allowlistAdmits(key.contextAllowlist, target.projectSlug, target.environmentName)
        ? scopes
        : NO_SCOPES,
  };
}
