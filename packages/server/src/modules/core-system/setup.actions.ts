import { setupCompleteRoute } from '@cms/core';
import { defineAction } from '../../actions/define-action.js';
import { type CookiePolicy, setSessionCookies, signInOriginOf } from './session-cookies.js';
import type { SetupService } from './setup.service.js';

/** The one-time creation of the first administrator (decisions.md §1). */
export function setupActions(deps: { setup: SetupService; cookies: CookiePolicy }) {
  return [
    defineAction({
      route: setupCompleteRoute,
      permissions: [],
      studio: { visibility: 'hidden' },
      cli: { visibility: 'hidden' },
      handler: async ({ body }, ctx, { request, reply }) => {
        const issued = await deps.setup.setup(ctx, { ...body, ...signInOriginOf(request) });
        setSessionCookies(reply, deps.cookies, issued);
        return { session: issued.session };
      },
    }),
  ];
}
