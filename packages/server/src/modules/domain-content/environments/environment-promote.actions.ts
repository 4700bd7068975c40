import { environmentsPromoteRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { EnvironmentPromoteService } from './environment-promote.service.js';

/** `POST /api/v1/environments/{name}/promote` (decisions.md §4), declared by the content area. */
export function environmentPromoteActions(promotion: EnvironmentPromoteService): AnyAction[] {
  return [
    defineAction({
      route: environmentsPromoteRoute,
      permissions: ['settings:manage'],
      handler: async ({ params, body }, ctx) => promotion.promote(ctx, { source: params.name, ...body }),
    }),
  ];
}
