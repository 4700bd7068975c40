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
