import { ENVIRONMENT_NAME_PATTERN, PROJECT_SLUG_PATTERN, SCOPES } from '@cms/core';

/** One project/environment pair of a key's allowlist; `*` matches any. */
const allowlistEntrySchema = {
  type: 'object',
  required: ['project', 'environment'],
  additionalProperties: false,
  properties: {
    project: { type: 'string', anyOf: [{ const: '*' }, { pattern: PROJECT_SLUG_PATTERN }] },
    environment: { type: 'string', anyOf: [{ const: '*' }, { pattern: ENVIRONMENT_NAME_PATTERN }] },
  },
} as const;

/** Body of `POST /api/v1/api-keys`. */
export const createApiKeyBodySchema = {
  type: 'object',
  required: ['label', 'scopes', 'contextAllowlist'],
  additionalProperties: false,
  properties: {
    label: { type: 'string', minLength: 1, maxLength: 200 },
    // `*` is every scope (ALL_SCOPES in api-keys.service.ts), stored as the full list.
    scopes: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: [...SCOPES, '*'] } },
    contextAllowlist: { type: 'array', minItems: 1, maxItems: 100, items: allowlistEntrySchema },
    expiresAt: { type: ['string', 'null'], format: 'date-time' },
    kind: { type: 'string', enum: ['live', 'preview'], default: 'live' },
  },
} as const;

const apiKeyProperties = {
  id: { type: 'string' },
  kind: { type: 'string' },
  label: { type: 'string' },
  prefix: { type: 'string' },
  scopes: { type: 'array', items: { type: 'string' } },
  contextAllowlist: {
    type: 'array',
    items: {
      type: 'object',
      required: ['project', 'environment'],
      properties: { project: { type: 'string' }, environment: { type: 'string' } },
    },
  },
  expiresAt: { type: ['string', 'null'], format: 'date-time' },
  createdAt: { type: 'string', format: 'date-time' },
  createdBy: { type: ['string', 'null'] },
  lastUsedAt: { type: ['string', 'null'], format: 'date-time' },
  revokedAt: { type: ['string', 'null'], format: 'date-time' },
} as const;

const apiKeyRequired = [
  'id',
  'kind',
  'label',
  'prefix',
  'scopes',
  'contextAllowlist',
  'expiresAt',
  'createdAt',
  'createdBy',
  'lastUsedAt',
  'revokedAt',
] as const;

/** Wire shape of a key in listings: never its secret. */
export const apiKeySchema = { type: 'object', required: apiKeyRequired, properties: apiKeyProperties } as const;

/** Answer of `POST /api/v1/api-keys`: the only time `apiKey` (the full key) is shown. */
export const createdApiKeySchema = {
  type: 'object',
  required: [...apiKeyRequired, 'apiKey'],
  properties: { ...apiKeyProperties, apiKey: { type: 'string' } },
} as const;

/** Path of `DELETE /api/v1/api-keys/{id}`. */
export const apiKeyIdParamsSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', format: 'uuid' } },
} as const;

/** Answer of revoking a key. */
export const revokedApiKeySchema = {
  type: 'object',
  required: ['revoked', 'id'],
  properties: { revoked: { type: 'boolean' }, id: { type: 'string' } },
} as const;
