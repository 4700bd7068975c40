/** Wire shape of an environment (interface.md "Environment"). */
export const environmentSchema = {
  type: 'object',
  required: ['name', 'extends', 'isDefault', 'createdAt'],
  properties: {
    name: { type: 'string' },
    extends: { type: ['string', 'null'] },
    isDefault: { type: 'boolean' },
    createdAt: { type: 'string', format: 'date-time' },
  },
} as const;

/** Environment names: lowercase words, like slugs. */
export const ENVIRONMENT_NAME_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';

/** Body of `POST /api/v1/environments`; unknown properties are INVALID_INPUT. */
export const createEnvironmentBodySchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: ENVIRONMENT_NAME_PATTERN },
    extends: { type: 'string', pattern: ENVIRONMENT_NAME_PATTERN },
    cloneFrom: { type: 'string', pattern: ENVIRONMENT_NAME_PATTERN },
  },
} as const;

/** Path of `DELETE /api/v1/environments/{name}`. */
export const environmentNameParamsSchema = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', pattern: ENVIRONMENT_NAME_PATTERN } },
} as const;

/** Answer of deleting an environment. */
export const environmentDeletedSchema = {
  type: 'object',
  required: ['deleted', 'name'],
  properties: { deleted: { type: 'boolean' }, name: { type: 'string' } },
} as const;
