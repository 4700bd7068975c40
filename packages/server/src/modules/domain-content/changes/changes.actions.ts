import { changesListRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { ChangeFeedService } from './changes.service.js';

/** The change feed's action (docs/api.md "Change feed"); `draft=true` also needs content:read:draft. */
export function changesActions(service: ChangeFeedService): AnyAction[] {
  return [
    defineAction({
      route: changesListRoute,
      permissions: ['content:read'],
      handler: (input, ctx) => service.list(ctx, input),
    }),
  ];
}
