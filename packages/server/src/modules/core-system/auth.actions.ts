import { defineAction } from '../../actions/define-action.js';
import {
  loginBodySchema,
  logoutSchema,
  sessionEndedSchema,
  sessionEnvelopeSchema,
  sessionIdParamsSchema,
  sessionSchema,
} from './auth.schemas.js';
import type { AuthService } from './auth.service.js';
import { type CookiePolicy, clearSessionCookies, setSessionCookies, signInOriginOf } from './session-cookies.js';
import type { SessionsService } from './sessions.service.js';

/** Sign-in, sign-out and the caller's own sessions. */
export function authActions(deps: { auth: AuthService; sessions: SessionsService; cookies: CookiePolicy }) {
  return [
    defineAction<unknown, unknown, { email: string; password: string }>({
      id: 'auth.login',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/auth/login',
      summary: 'Sign in with email and password; sets the cms_session and cms_csrf cookies',
      permissions: [],
      // Login may carry the routing headers (interface.md); they play no part in signing in.
      target: 'none',
      auth: 'public',
      csrf: false,
      request: { body: loginBodySchema },
      response: { status: 200, envelope: 'single', schema: sessionEnvelopeSchema },
      handler: async ({ body }, ctx, { request, reply }) => {
        const origin = signInOriginOf(request);
        const issued = await deps.auth.login(ctx, { ...body, ...origin, clientAddress: origin.ipAddress });
        setSessionCookies(reply, deps.cookies, issued);
        return { session: issued.session };
      },
    }),
    defineAction({
      id: 'auth.logout',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/auth/logout',
      summary: 'End the current session and clear its cookies',
      permissions: [],
      target: 'none',
      response: { status: 200, envelope: 'single', schema: logoutSchema },
      handler: async (_input, ctx, { reply }) => {
        const result = await deps.auth.logout(ctx);
        clearSessionCookies(reply, deps.cookies);
        return result;
      },
    }),
    defineAction({
      id: 'auth.sessions.list',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/auth/sessions',
      summary: "List the caller's own active sessions",
      permissions: [],
      target: 'none',
      response: { status: 200, envelope: 'single', schema: { type: 'array', items: sessionSchema } },
      handler: async (_input, ctx) => deps.sessions.list(ctx),
    }),
    defineAction<{ id: string }>({
      id: 'auth.sessions.end',
      kind: 'command',
      method: 'DELETE',
      path: '/api/v1/auth/sessions/{id}',
      summary: "End one of the caller's own sessions",
      permissions: [],
      target: 'none',
      request: { params: sessionIdParamsSchema },
      response: { status: 200, envelope: 'single', schema: sessionEndedSchema },
      handler: async ({ params }, ctx, { reply }) => {
        const result = await deps.sessions.end(ctx, params.id);
        if (result.current) clearSessionCookies(reply, deps.cookies);
        return result;
      },
    }),
  ];
}
