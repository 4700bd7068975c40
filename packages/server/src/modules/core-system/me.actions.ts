import { meGetRoute, studioBootstrapRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../actions/define-action.js';
import type { MeService } from './me.service.js';
import type { StudioService } from './studio.service.js';

/** The caller's identity and capabilities, and the Studio's start-up data. */
export function meActions(deps: { me: MeService; studio: StudioService }): AnyAction[] {
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
  ];
}
