import {
  authLoginMfaRoute,
  authLoginRoute,
  authLogoutRoute,
  authSessionsEndRoute,
  authSessionsListRoute,
} from '@cms/core';
import { defineAction } from '../../actions/define-action.js';
import type { AuthService } from './auth.service.js';
import { attemptSourceOf, setDeviceCookie } from './device-cookies.js';
import { type CookiePolicy, clearSessionCookies, setSessionCookies, signInOriginOf } from './session-cookies.js';
import type { SessionsService } from './sessions.service.js';

/** Sign-in, sign-out and the caller's own sessions. */
export function authActions(deps: { auth: AuthService; sessions: SessionsService; cookies: CookiePolicy }) {
  return [
    defineAction({
      route: authLoginRoute,
      permissions: [],
      handler: async ({ body }, ctx, { request, reply }) => {
        const from = attemptSourceOf(request);
        const outcome = await deps.auth.login(ctx, { ...body, ...signInOriginOf(request), from });
        if (outcome.mfa) return { mfa: outcome.mfa };
        setSessionCookies(reply, deps.cookies, outcome.session);
        setDeviceCookie(reply, deps.cookies, outcome.deviceCookie);
        return { session: outcome.session.session };
      },
    }),
    defineAction({
      route: authLoginMfaRoute,
      permissions: [],
      handler: async ({ body }, _ctx, { request, reply }) => {
        const from = attemptSourceOf(request);
        const signedIn = await deps.auth.loginSecondStep({ ...body, ...signInOriginOf(request), from });
        setSessionCookies(reply, deps.cookies, signedIn.session);
        setDeviceCookie(reply, deps.cookies, signedIn.deviceCookie);
        return { session: signedIn.session.session };
      },
    }),
    defineAction({
      route: authLogoutRoute,
      permissions: [],
      handler: async (_input, ctx, { reply }) => {
        const result = await deps.auth.logout(ctx);
        clearSessionCookies(reply, deps.cookies);
        return result;
      },
    }),
    defineAction({
      route: authSessionsListRoute,
      permissions: [],
      handler: async (_input, ctx) => deps.sessions.list(ctx),
    }),
    defineAction({
      route: authSessionsEndRoute,
      permissions: [],
      handler: async ({ params }, ctx, { reply }) => {
        const result = await deps.sessions.end(ctx, params.id);
        if (result.current) clearSessionCookies(reply, deps.cookies);
        return result;
      },
    }),
  ];
}
