/** User management (`users:manage`, an instance-level scope) and a user's grants. */
import { type Static, Type } from 'typebox';
import { ROLES } from '../auth/scopes.js';
import { PasswordInput } from './auth.routes.js';
import { defineRoute } from './define-route.js';
import {
  ENVIRONMENT_NAME_PATTERN,
  LimitQuery,
  OffsetQuery,
  PROJECT_SLUG_PATTERN,
  StringEnum,
  Timestamp,
  Uuid,
  WithDefault,
} from './shapes.js';

const RoleInput = StringEnum(ROLES);

/** Wire shape of a user: `{ id, email, role, createdAt }` (decisions.md §4) plus state. */
export const UserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Type.String(),
  disabled: Type.Boolean(),
  hasPassword: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type User = Static<typeof UserSchema>;

/** Query of `GET /api/v1/users`. */
export const ListUsersQuerySchema = Type.Object(
  { limit: WithDefault(LimitQuery(20, 100), 20), offset: WithDefault(OffsetQuery, 0) },
  { additionalProperties: false },
);

/** Body of `POST /api/v1/users`. */
export const CreateUserBodySchema = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    role: RoleInput,
    password: Type.Optional(PasswordInput),
  },
  { additionalProperties: false },
);
export type CreateUserBody = Static<typeof CreateUserBodySchema>;

/** Body of `PATCH /api/v1/users/{id}`. */
export const UpdateUserBodySchema = Type.Object(
  {
    role: Type.Optional(RoleInput),
    disabled: Type.Optional(Type.Boolean()),
    password: Type.Optional(PasswordInput),
    /** Needed when a signed-in user changes their own password: the one they sign in with now. */
    currentPassword: Type.Optional(PasswordInput),
  },
  { minProperties: 1, additionalProperties: false },
);
export type UpdateUserBody = Static<typeof UpdateUserBodySchema>;

/** Path of the `/api/v1/users/{id}` routes. */
export const UserIdParamsSchema = Type.Object({ id: Uuid });

/** One grant: a role in a project, for every environment (`*`) or one. */
export const GrantSchema = Type.Object(
  {
    project: Type.String({ pattern: PROJECT_SLUG_PATTERN }),
    environment: Type.Unsafe<string>({
      type: 'string',
      anyOf: [{ const: '*' }, { pattern: ENVIRONMENT_NAME_PATTERN }],
    }),
    role: RoleInput,
  },
  { additionalProperties: false },
);
export type Grant = Static<typeof GrantSchema>;

/** Body of `PUT /api/v1/users/{id}/grants`: the complete new list. */
export const ReplaceGrantsBodySchema = Type.Array(GrantSchema, { maxItems: 500 });

export const usersListRoute = defineRoute({
  id: 'users.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/users',
  summary: 'List users',
  target: 'none',
  request: { query: ListUsersQuerySchema },
  response: { status: 200, envelope: 'paginated', schema: UserSchema },
});

export const usersCreateRoute = defineRoute({
  id: 'users.create',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/users',
  summary: 'Create a user; without a password they cannot sign in until one is set',
  target: 'none',
  request: { body: CreateUserBodySchema },
  response: { status: 201, envelope: 'single', schema: UserSchema },
  // SERVICE_UNAVAILABLE: the password-hashing line is full (503 with Retry-After, docs/access-control.md "Passwords").
  errors: ['SERVICE_UNAVAILABLE'],
});

export const usersGetRoute = defineRoute({
  id: 'users.get',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/users/{id}',
  summary: 'Get one user',
  target: 'none',
  request: { params: UserIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: UserSchema },
});

export const usersUpdateRoute = defineRoute({
  id: 'users.update',
  kind: 'command',
  method: 'PATCH',
  path: '/api/v1/users/{id}',
  summary: "Change a user's role, disabled state or password (disabling or a new password ends their sessions)",
  target: 'none',
  request: { params: UserIdParamsSchema, body: UpdateUserBodySchema },
  response: { status: 200, envelope: 'single', schema: UserSchema },
  // SERVICE_UNAVAILABLE: the password-hashing line is full (503 with Retry-After, docs/access-control.md "Passwords").
  errors: ['RATE_LIMITED', 'SERVICE_UNAVAILABLE'],
});

export const usersDeleteRoute = defineRoute({
  id: 'users.delete',
  kind: 'command',
  method: 'DELETE',
  path: '/api/v1/users/{id}',
  summary: 'Delete a user with their grants and sessions; answers the deleted user',
  target: 'none',
  request: { params: UserIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: UserSchema },
});

export const usersMfaResetRoute = defineRoute({
  id: 'users.mfa.reset',
  kind: 'command',
  method: 'DELETE',
  path: '/api/v1/users/{id}/mfa',
  summary: "Remove a user's second factor and recovery codes (a lost authenticator); answers the user",
  target: 'none',
  request: { params: UserIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: UserSchema },
});

export const usersGrantsGetRoute = defineRoute({
  id: 'users.grants.get',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/users/{id}/grants',
  summary: "List a user's grants",
  target: 'none',
  request: { params: UserIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: Type.Array(GrantSchema) },
});

export const usersGrantsReplaceRoute = defineRoute({
  id: 'users.grants.replace',
  kind: 'command',
  method: 'PUT',
  path: '/api/v1/users/{id}/grants',
  summary: 'Replace a user\'s grants: [{ project, environment or "*", role }]',
  target: 'none',
  request: { params: UserIdParamsSchema, body: ReplaceGrantsBodySchema },
  response: { status: 200, envelope: 'single', schema: Type.Array(GrantSchema) },
});
