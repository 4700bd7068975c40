import { invitesAcceptRoute, invitesCreateRoute } from '@cms/core';
import { defineAction } from '../../actions/define-action.js';
import type { InvitesService } from './invites.service.js';
import { type CookiePolicy, setSessionCookies, signInOriginOf } from './session-cookies.js';

/** Invitations: create (users:manage) and accept (public, with the token from the link). */
export function inviteActions(deps: { invites: InvitesService; cookies: CookiePolicy }) {
  return [
    defineAction({
      route: invitesCreateRoute,
      permissions: ['users:manage'],
      handler: async ({ body }, ctx) => deps.invites.create(ctx, body),
    }),
    defineAction({
      route: invitesAcceptRoute,
      permissions: [],
      handler: async ({ body }, ctx, { request, reply }) => {
        const issued = await deps.invites.accept(ctx, { ...body, ...signInOriginOf(request) });
        setSessionCookies(reply, deps.cookies, issued);
        return { session: issued.session };
      },
    }),
  ];
}
