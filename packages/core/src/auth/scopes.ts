/**
 * Scopes (what an API key or a role may do), capabilities (what `GET /me` reports) and roles.
 * Source: interface.md "Scopes" and "Principal", decisions.md §3 (`content:write:draft`) and §4 (roles).
 */
export const SCOPES = [
  'schema:read',
  'schema:write',
  'content:read',
  'content:read:draft',
  'content:write',
  'content:write:draft',
  'content:publish',
  'content:delete',
  'media:read',
  'media:upload',
  'media:delete',
  'webhooks:read',
  'webhooks:write',
  'users:manage',
  'settings:manage',
  'audit:read',
] as const;

/** One permission an action may require. */
export type Scope = (typeof SCOPES)[number];

/** Type guard for scope strings coming from clients. */
export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** Capabilities reported by `GET /api/v1/me`, each granted by one scope. */
export const CAPABILITY_SCOPES = {
  'schema.read': 'schema:read',
  'schema.write': 'schema:write',
  'content.read': 'content:read',
  'content.readDraft': 'content:read:draft',
  'content.write': 'content:write',
  'content.publish': 'content:publish',
  'content.delete': 'content:delete',
  'users.manage': 'users:manage',
  'settings.manage': 'settings:manage',
} as const satisfies Record<string, Scope>;

/** A capability name as reported by `GET /me`. */
export type Capability = keyof typeof CAPABILITY_SCOPES;

/** The capabilities object of `GET /me`. */
export type Capabilities = Record<Capability, boolean>;

/** Builds the capabilities object from a set of scopes. */
export function capabilitiesFromScopes(scopes: ReadonlySet<Scope>): Capabilities {
  const result = {} as Capabilities;
  for (const [capability, scope] of Object.entries(CAPABILITY_SCOPES) as [Capability, Scope][]) {
    result[capability] = scopes.has(scope);
  }
  return result;
}

export const ROLES = ['admin', 'editor', 'author', 'viewer'] as const;

/** A user's role, globally or in a project through a grant. */
export type Role = (typeof ROLES)[number];

/** Type guard for role strings coming from clients. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * Scopes of each role. Capabilities follow decisions.md §4; media and webhook scopes, which §4
 * does not map, follow the same lines: those who write content upload media, those who delete
 * content delete media, and webhooks are settings (admin only). See docs/access-control.md.
 */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  admin: SCOPES,
  editor: [
    'schema:read',
    'content:read',
    'content:read:draft',
    'content:write',
    'content:write:draft',
    'content:publish',
    'content:delete',
    'media:read',
    'media:upload',
    'media:delete',
  ],
  author: [
    'schema:read',
    'content:read',
    'content:read:draft',
    'content:write',
    'content:write:draft',
    'media:read',
    'media:upload',
  ],
  viewer: ['schema:read', 'content:read', 'content:read:draft', 'media:read'],
};
