/**
 * API key routes (interface.md "Authentication", docs/access-control.md "API keys"): managing keys
 * needs `settings:manage`; any valid key may revoke itself (sign-out of a key, `cms logout`).
 */
import { type Static, Type } from 'typebox';
import { SCOPES } from '../auth/scopes.js';
import { defineRoute } from './define-route.js';
import {
  ENVIRONMENT_NAME_PATTERN,
  Nullable,
  PROJECT_SLUG_PATTERN,
  StringEnum,
  Timestamp,
  Uuid,
  WithDefault,
} from './shapes.js';

/** In `scopes` of a new key, every scope there is (stored as the full list as of creation). */
export const ALL_SCOPES = '*';

/** Longest key label. */
export const API_KEY_LABEL_MAX_LENGTH = 200;
/** Most project/environment pairs in one key's allowlist. */
export const API_KEY_ALLOWLIST_MAX = 100;

/** The kinds of key: `cli` keys come only from the device flow, never from `POST /api-keys`. */
export const ApiKeyKindSchema = StringEnum(['live', 'cli', 'preview']);
export type ApiKeyKind = Static<typeof ApiKeyKindSchema>;

/** One project/environment pair of a key's allowlist, as stored and answered; `*` matches any. */
export const ContextEntrySchema = Type.Object({ project: Type.String(), environment: Type.String() });
export type ContextEntry = Static<typeof ContextEntrySchema>;

/** An allowlist entry as a new key takes it: a project slug or `*`, an environment name or `*`. */
const ContextEntryInput = Type.Object(
  {
    project: Type.Unsafe<string>({ type: 'string', anyOf: [{ const: '*' }, { pattern: PROJECT_SLUG_PATTERN }] }),
    environment: Type.Unsafe<string>({
      type: 'string',
      anyOf: [{ const: '*' }, { pattern: ENVIRONMENT_NAME_PATTERN }],
    }),
  },
  { additionalProperties: false },
);

/** Body of `POST /api/v1/api-keys`. */
export const CreateApiKeyBodySchema = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: API_KEY_LABEL_MAX_LENGTH }),
    scopes: Type.Array(StringEnum([...SCOPES, ALL_SCOPES]), { minItems: 1, uniqueItems: true }),
    contextAllowlist: Type.Array(ContextEntryInput, { minItems: 1, maxItems: API_KEY_ALLOWLIST_MAX }),
    expiresAt: Type.Optional(Nullable(Timestamp)),
    kind: WithDefault(StringEnum(['live', 'preview']), 'live'),
  },
  { additionalProperties: false },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBodySchema>;

const apiKeyProperties = {
  id: Uuid,
  kind: ApiKeyKindSchema,
  label: Type.String(),
  /** The key's public prefix (`cms_key_live_ab12...`), to recognise it; never the secret. */
  prefix: Type.String(),
  scopes: Type.Array(StringEnum(SCOPES)),
  contextAllowlist: Type.Array(ContextEntrySchema),
  expiresAt: Nullable(Timestamp),
  createdAt: Timestamp,
  createdBy: Nullable(Type.String()),
  lastUsedAt: Nullable(Timestamp),
  revokedAt: Nullable(Timestamp),
};

/** Wire shape of a key in listings: never its secret. */
export const ApiKeySchema = Type.Object(apiKeyProperties);
export type ApiKey = Static<typeof ApiKeySchema>;

/** Answer of `POST /api/v1/api-keys`: the only time `apiKey` (the full key) is shown. */
export const CreatedApiKeySchema = Type.Object({ ...apiKeyProperties, apiKey: Type.String() });
export type CreatedApiKey = Static<typeof CreatedApiKeySchema>;

/** Path of `DELETE /api/v1/api-keys/{id}`. */
export const ApiKeyIdParamsSchema = Type.Object({ id: Uuid });

/** Answer of revoking a key (also when it was revoked already). */
export const RevokedApiKeySchema = Type.Object({ revoked: Type.Boolean(), id: Uuid });
export type RevokedApiKey = Static<typeof RevokedApiKeySchema>;

export const apiKeysCreateRoute = defineRoute({
  id: 'api-keys.create',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/api-keys',
  summary: 'Create an API key; the key itself is shown in this answer only',
  target: 'none',
  request: { body: CreateApiKeyBodySchema },
  response: { status: 201, envelope: 'single', schema: CreatedApiKeySchema },
});

export const apiKeysListRoute = defineRoute({
  id: 'api-keys.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/api-keys',
  summary: 'List API keys (never their secrets)',
  target: 'none',
  request: {},
  response: { status: 200, envelope: 'single', schema: Type.Array(ApiKeySchema) },
});

export const apiKeysRevokeCurrentRoute = defineRoute({
  id: 'api-keys.revokeCurrent',
  kind: 'command',
  method: 'DELETE',
  path: '/api/v1/api-keys/current',
  summary: 'Revoke the API key presenting this request (sign a key out); any valid key may',
  target: 'none',
  request: {},
  response: { status: 200, envelope: 'single', schema: RevokedApiKeySchema },
});

export const apiKeysRevokeRoute = defineRoute({
  id: 'api-keys.revoke',
  kind: 'command',
  method: 'DELETE',
  path: '/api/v1/api-keys/{id}',
  summary: 'Revoke an API key; it stops working at once in every server process',
  target: 'none',
  request: { params: ApiKeyIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: RevokedApiKeySchema },
});
