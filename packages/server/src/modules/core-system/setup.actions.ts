import { defineAction } from '../../actions/define-action.js';
import { sessionEnvelopeSchema, setupBodySchema } from './auth.schemas.js';
import { type CookiePolicy, setSessionCookies, signInOriginOf } from './session-cookies.js';
import type { SetupService } from './setup.service.js';

/** The one-time creation of the first administrator (decisions.md §1). */
export function setupActions(deps: { setup: SetupService; cookies: CookiePolicy }) {
  return [
    defineAction<unknown, unknown, { token: string; email: string; password: string }>({
      id: 'setup.complete',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/setup',
      summary: 'Create the first administrator with the setup token from the server log, and sign in',
      permissions: [],
      target: 'none',
      auth: 'public',
      csrf: false,
      request: { body: setupBodySchema },
      response: { status: 200, envelope: 'single', schema: sessionEnvelopeSchema },
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
