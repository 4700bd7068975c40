import { environmentsCreateRoute, environmentsDeleteRoute, environmentsListRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../actions/define-action.js';
import type { EnvironmentsService } from './environments.service.js';

/** Environment routes of `core.system` (cloning is done by, and promotion declared in, the content area). */
export function environmentActions(environments: EnvironmentsService): AnyAction[] {
  return [
    defineAction({
      route: environmentsListRoute,
      permissions: [],
      handler: async (_input, ctx) => environments.list(ctx),
    }),
    defineAction({
      route: environmentsCreateRoute,
      permissions: ['settings:manage'],
      handler: async ({ body }, ctx) => environments.create(ctx, body),
    }),
    defineAction({
      route: environmentsDeleteRoute,
      permissions: ['settings:manage'],
      handler: async ({ params }, ctx) => environments.remove(ctx, params.name),
    }),
  ];
}
