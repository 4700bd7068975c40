import { ROLES } from '@cms/core';
import { limitQuerySchema, OFFSET_QUERY_SCHEMA } from '../../actions/query-schemas.js';
import { ENVIRONMENT_NAME_PATTERN } from './environments.schemas.js';
import { PROJECT_SLUG_PATTERN } from './projects.schemas.js';

const ROLE = { type: 'string', enum: ROLES } as const;
const PASSWORD_INPUT = { type: 'string', maxLength: 4096 } as const;

/** Wire shape of a user: `{ id, email, role, createdAt }` (decisions.md §4) plus state. */
export const userSchema = {
  type: 'object',
  required: ['id', 'email', 'role', 'disabled', 'hasPassword', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string' },
    disabled: { type: 'boolean' },
    hasPassword: { type: 'boolean' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
} as const;

/** Query of `GET /api/v1/users`. */
export const listUsersQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: limitQuerySchema(20, 100),
    offset: OFFSET_QUERY_SCHEMA,
  },
} as const;

/** Body of `POST /api/v1/users`. */
export const createUserBodySchema = {
  type: 'object',
  required: ['email', 'role'],
  additionalProperties: false,
  properties: { email: { type: 'string', format: 'email', maxLength: 254 }, role: ROLE, password: PASSWORD_INPUT },
} as const;

/** Body of `PATCH /api/v1/users/{id}`. */
export const updateUserBodySchema = {
  type: 'object',
  minProperties: 1,
  additionalProperties: false,
  properties: { role: ROLE, disabled: { type: 'boolean' }, password: PASSWORD_INPUT },
} as const;

/** Path of the `/api/v1/users/{id}` routes. */
export const userIdParamsSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', format: 'uuid' } },
} as const;

/** One grant: a role in a project, for every environment (`*`) or one. */
export const grantSchema = {
  type: 'object',
  required: ['project', 'environment', 'role'],
  additionalProperties: false,
  properties: {
    project: { type: 'string', pattern: PROJECT_SLUG_PATTERN },
    environment: { type: 'string', anyOf: [{ const: '*' }, { pattern: ENVIRONMENT_NAME_PATTERN }] },
    role: ROLE,
  },
} as const;

/** Body of `PUT /api/v1/users/{id}/grants`: the complete new list. */
export const replaceGrantsBodySchema = { type: 'array', maxItems: 500, items: grantSchema } as const;
