import { defineAction } from '../../actions/define-action.js';
import type { GrantInput, GrantsService } from './grants.service.js';
import {
  createUserBodySchema,
  grantSchema,
  listUsersQuerySchema,
  replaceGrantsBodySchema,
  updateUserBodySchema,
  userIdParamsSchema,
  userSchema,
} from './users.schemas.js';
import type { CreateUserInput, UpdateUserInput, UsersService } from './users.service.js';

const grantsSchema = { type: 'array', items: grantSchema } as const;

/** User management (`users:manage`, an instance-level scope) and grants. */
export function userActions(deps: { users: UsersService; grants: GrantsService }) {
  return [
    defineAction<unknown, { limit: number; offset: number }>({
      id: 'users.list',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/users',
      summary: 'List users',
      permissions: ['users:manage'],
      target: 'none',
      request: { query: listUsersQuerySchema },
      response: { status: 200, envelope: 'paginated', schema: userSchema },
      handler: async ({ query }, ctx) => deps.users.list(ctx, query),
    }),
    defineAction<unknown, unknown, CreateUserInput>({
      id: 'users.create',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/users',
      summary: 'Create a user; without a password they cannot sign in until one is set',
      permissions: ['users:manage'],
      target: 'none',
      request: { body: createUserBodySchema },
      response: { status: 201, envelope: 'single', schema: userSchema },
      handler: async ({ body }, ctx) => deps.users.create(ctx, body),
    }),
    defineAction<{ id: string }>({
      id: 'users.get',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/users/{id}',
      summary: 'Get one user',
      permissions: ['users:manage'],
      target: 'none',
      request: { params: userIdParamsSchema },
      response: { status: 200, envelope: 'single', schema: userSchema },
      handler: async ({ params }, ctx) => deps.users.get(ctx, params.id),
    }),
    defineAction<{ id: string }, unknown, UpdateUserInput>({
      id: 'users.update',
      kind: 'command',
      method: 'PATCH',
      path: '/api/v1/users/{id}',
      summary: "Change a user's role, disabled state or password (disabling or a new password ends their sessions)",
      permissions: ['users:manage'],
      target: 'none',
      request: { params: userIdParamsSchema, body: updateUserBodySchema },
      response: { status: 200, envelope: 'single', schema: userSchema },
      handler: async ({ params, body }, ctx) => deps.users.update(ctx, params.id, body),
    }),
    defineAction<{ id: string }>({
      id: 'users.delete',
      kind: 'command',
      method: 'DELETE',
      path: '/api/v1/users/{id}',
      summary: 'Delete a user with their grants and sessions; answers the deleted user',
      permissions: ['users:manage'],
      target: 'none',
      request: { params: userIdParamsSchema },
      response: { status: 200, envelope: 'single', schema: userSchema },
      handler: async ({ params }, ctx) => deps.users.remove(ctx, params.id),
    }),
    defineAction<{ id: string }>({
      id: 'users.grants.get',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/users/{id}/grants',
      summary: "List a user's grants",
      permissions: ['users:manage'],
      target: 'none',
      request: { params: userIdParamsSchema },
      response: { status: 200, envelope: 'single', schema: grantsSchema },
      handler: async ({ params }, ctx) => deps.grants.list(ctx, params.id),
    }),
    defineAction<{ id: string }, unknown, GrantInput[]>({
      id: 'users.grants.replace',
      kind: 'command',
      method: 'PUT',
      path: '/api/v1/users/{id}/grants',
      summary: 'Replace a user\'s grants: [{ project, environment or "*", role }]',
      permissions: ['users:manage'],
      target: 'none',
      request: { params: userIdParamsSchema, body: replaceGrantsBodySchema },
      response: { status: 200, envelope: 'single', schema: grantsSchema },
      handler: async ({ params, body }, ctx) => deps.grants.replace(ctx, params.id, body),
    }),
  ];
}
