import { defineAction } from '../../actions/define-action.js';
import { meSchema, studioBootstrapSchema } from './me.schemas.js';
import type { MeService } from './me.service.js';
import type { StudioService } from './studio.service.js';

/** The caller's identity and capabilities, and the Studio's start-up data. */
export function meActions(deps: { me: MeService; studio: StudioService }) {
  return [
    defineAction({
      id: 'me.get',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/me',
      summary: 'Who the caller is and what it may do in the active project and environment',
      permissions: [],
      target: 'optional',
      response: { status: 200, envelope: 'single', schema: meSchema },
      handler: async (_input, ctx) => deps.me.me(ctx),
    }),
    defineAction({
      id: 'studio.bootstrap',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/studio/bootstrap',
      summary: 'Everything the Studio needs at start: me, projects, environments, modules, extensions',
      permissions: [],
      target: 'optional',
      response: { status: 200, envelope: 'single', schema: studioBootstrapSchema },
      cli: { visibility: 'hidden' },
      handler: async (_input, ctx) => deps.studio.bootstrap(ctx),
    }),
  ];
}
