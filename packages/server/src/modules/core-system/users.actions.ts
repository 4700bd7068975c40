import {
  usersCreateRoute,
  usersDeleteRoute,
  usersGetRoute,
  usersGrantsGetRoute,
  usersGrantsReplaceRoute,
  usersListRoute,
  usersMfaResetRoute,
  usersUpdateRoute,
} from '@cms/core';
import { defineAction } from '../../actions/define-action.js';
import { attemptSourceOf } from './device-cookies.js';
import type { GrantsService } from './grants.service.js';
import type { UsersService } from './users.service.js';

/** User management (`users:manage`, an instance-level scope) and grants. */
export function userActions(deps: { users: UsersService; grants: GrantsService }) {
  return [
    defineAction({
      route: usersListRoute,
      permissions: ['users:manage'],
      handler: async ({ query }, ctx) => deps.users.list(ctx, query),
    }),
    defineAction({
      route: usersCreateRoute,
      permissions: ['users:manage'],
      handler: async ({ body }, ctx) => deps.users.create(ctx, body),
    }),
    defineAction({
      route: usersGetRoute,
      permissions: ['users:manage'],
      handler: async ({ params }, ctx) => deps.users.get(ctx, params.id),
    }),
    defineAction({
      route: usersUpdateRoute,
      permissions: ['users:manage'],
      handler: async ({ params, body }, ctx, { request }) =>
        deps.users.update(ctx, params.id, { ...body, from: attemptSourceOf(request) }),
    }),
    defineAction({
      route: usersDeleteRoute,
      permissions: ['users:manage'],
      handler: async ({ params }, ctx) => deps.users.remove(ctx, params.id),
    }),
    defineAction({
      route: usersMfaResetRoute,
      permissions: ['users:manage'],
      handler: async ({ params }, ctx) => deps.users.resetMfa(ctx, params.id),
    }),
    defineAction({
      route: usersGrantsGetRoute,
      permissions: ['users:manage'],
      handler: async ({ params }, ctx) => deps.grants.list(ctx, params.id),
    }),
    defineAction({
      route: usersGrantsReplaceRoute,
      permissions: ['users:manage'],
      handler: async ({ params, body }, ctx) => deps.grants.replace(ctx, params.id, body),
    }),
  ];
}
