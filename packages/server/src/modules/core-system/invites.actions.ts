import type { Role } from '@cms/core';
import { defineAction } from '../../actions/define-action.js';
import { acceptInviteBodySchema, sessionEnvelopeSchema } from './auth.schemas.js';
import { createInviteBodySchema, inviteSchema } from './invites.schemas.js';
import type { InvitesService } from './invites.service.js';
import { type CookiePolicy, setSessionCookies, signInOriginOf } from './session-cookies.js';

/** Invitations: create (users:manage) and accept (public, with the token from the link). */
export function inviteActions(deps: { invites: InvitesService; cookies: CookiePolicy }) {
  return [
    defineAction<unknown, unknown, { email: string; role: Role; project?: string }>({
      id: 'invites.create',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/invites',
      summary: 'Invite someone by email; with a project, they join it with the role',
      permissions: ['users:manage'],
      target: 'none',
      request: { body: createInviteBodySchema },
      response: { status: 200, envelope: 'single', schema: inviteSchema },
      handler: async ({ body }, ctx) => deps.invites.create(ctx, body),
    }),
    defineAction<unknown, unknown, { token: string; password: string }>({
      id: 'invites.accept',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/invites/accept',
      summary: 'Accept an invite: choose a password, create the account and sign in',
      permissions: [],
      target: 'none',
      auth: 'public',
      csrf: false,
      request: { body: acceptInviteBodySchema },
      response: { status: 200, envelope: 'single', schema: sessionEnvelopeSchema },
      handler: async ({ body }, ctx, { request, reply }) => {
        const issued = await deps.invites.accept(ctx, { ...body, ...signInOriginOf(request) });
        setSessionCookies(reply, deps.cookies, issued);
        return { session: issued.session };
      },
    }),
  ];
}
