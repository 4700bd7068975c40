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
  const instanceWide = key.contextAllowlist.some((entry) => entry.project === '*');
  return {
    type: 'apiKey',
    id: key.id,
    label: key.label,
    viaSession: false,
    canAccess: (project, environment) => allowlistAdmits(key.contextAllowlist, project, environment),
    // Outside any project (users, keys, projects) the key's scopes apply only when its allowlist
    // covers every project: a key limited to named projects is a tenant key and cannot act on the
    // instance, where it could learn about other projects (docs/access-control.md "API keys").
    scopesIn: (target) => {
      if (target === null) return instanceWide ? scopes : NO_SCOPES;
      return allowlistAdmits(key.contextAllowlist, target.projectSlug, target.environmentName) ? scopes : NO_SCOPES;
    },
  };
}
