import { meGetRoute, mePasswordChangeRoute, studioBootstrapRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../actions/define-action.js';
import { attemptSourceOf } from './device-cookies.js';
import type { MeService } from './me.service.js';
import type { StudioService } from './studio.service.js';
import type { UsersService } from './users.service.js';

/** The caller's identity and capabilities, the Studio's start-up data, and one's own password. */
export function meActions(deps: { me: MeService; studio: StudioService; users: UsersService }): AnyAction[] {
  return [
    defineAction({
      route: meGetRoute,
      permissions: [],
      handler: async (_input, ctx) => deps.me.me(ctx),
    }),
    defineAction({
      route: studioBootstrapRoute,
      permissions: [],
      cli: { visibility: 'hidden' },
      handler: async (_input, ctx) => deps.studio.bootstrap(ctx),
    }),
    defineAction({
      route: mePasswordChangeRoute,
      // Any signed-in person, whatever their role; an API key or preview token is FORBIDDEN (no password).
      permissions: [],
      cli: { visibility: 'hidden' },
      handler: async ({ body }, ctx, { request }) => deps.users.changeOwnPassword(ctx, body, attemptSourceOf(request)),
    }),
  ];
}
