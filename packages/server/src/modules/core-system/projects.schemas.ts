/** Project slugs: lowercase letters, digits and dashes, starting with a letter or digit, up to 63 characters. */
export const PROJECT_SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';

/** Wire shape of a project (decisions.md §4). */
export const projectSchema = {
  type: 'object',
  required: ['slug', 'name', 'createdAt'],
  properties: {
    slug: { type: 'string' },
    name: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
  },
} as const;

/** Body of `POST /api/v1/projects`. */
export const createProjectBodySchema = {
  type: 'object',
  required: ['slug'],
  additionalProperties: false,
  properties: {
    slug: { type: 'string', pattern: PROJECT_SLUG_PATTERN },
    name: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;

/** Settings of a project (`GET`/`PUT /api/v1/settings`, project from `X-CMS-Project`). */
export const projectSettingsSchema = {
  type: 'object',
  required: ['mediaImageMaxBytes'],
  properties: {
    mediaImageMaxBytes: { type: ['integer', 'null'] },
  },
} as const;

/** Body of `PUT /api/v1/settings`: every setting, null for "not set". */
export const putProjectSettingsBodySchema = {
  type: 'object',
  required: ['mediaImageMaxBytes'],
  additionalProperties: false,
  properties: {
    // Images (by detected type) larger than this are refused with PAYLOAD_TOO_LARGE; null: no extra limit.
    mediaImageMaxBytes: { type: ['integer', 'null'], minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
  },
} as const;
