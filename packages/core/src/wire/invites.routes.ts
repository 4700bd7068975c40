/** Invitations: create (users:manage) and accept (public, with the token from the link). */
import { type Static, Type } from 'typebox';
import { ROLES } from '../auth/scopes.js';
import { PasswordInput, SessionEnvelopeSchema, TokenInput } from './auth.routes.js';
import { defineRoute } from './define-route.js';
import { Nullable, PROJECT_SLUG_PATTERN, StringEnum, Timestamp, Uuid } from './shapes.js';

/** Body of `POST /api/v1/invites`. */
export const CreateInviteBodySchema = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    role: StringEnum(ROLES),
    project: Type.Optional(Type.String({ pattern: PROJECT_SLUG_PATTERN })),
  },
  { additionalProperties: false },
);
export type CreateInviteBody = Static<typeof CreateInviteBodySchema>;

/** Answer of `POST /api/v1/invites`: the link holds the token, shown only here. */
export const InviteSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Type.String(),
  project: Nullable(Type.String()),
  inviteUrl: Type.String(),
  expiresAt: Timestamp,
});
export type Invite = Static<typeof InviteSchema>;

/** Body of `POST /api/v1/invites/accept`. */
export const AcceptInviteBodySchema = Type.Object(
  { token: TokenInput, password: PasswordInput },
  { additionalProperties: false },
);
export type AcceptInviteBody = Static<typeof AcceptInviteBodySchema>;

export const invitesCreateRoute = defineRoute({
  id: 'invites.create',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/invites',
  summary: 'Invite someone by email; with a project, they join it with the role',
  target: 'none',
  request: { body: CreateInviteBodySchema },
  response: { status: 200, envelope: 'single', schema: InviteSchema },
});

export const invitesAcceptRoute = defineRoute({
  id: 'invites.accept',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/invites/accept',
  summary: 'Accept an invite: choose a password, create the account and sign in',
  target: 'none',
  auth: 'public',
  csrf: false,
  request: { body: AcceptInviteBodySchema },
  response: { status: 200, envelope: 'single', schema: SessionEnvelopeSchema },
  // SERVICE_UNAVAILABLE: the password-hashing line is full (503 with Retry-After, docs/access-control.md "Passwords").
  errors: ['SERVICE_UNAVAILABLE'],
});

/** A pending invite as listed: never its link, whose token exists only in the answer that created it. */
export const PendingInviteSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Type.String(),
  project: Nullable(Type.String()),
  createdBy: Nullable(Type.String()),
  createdAt: Timestamp,
  expiresAt: Timestamp,
});
export type PendingInvite = Static<typeof PendingInviteSchema>;

export const invitesListRoute = defineRoute({
  id: 'invites.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/invites',
  summary: 'List pending invites (neither accepted nor expired) the caller could have sent, newest first',
  target: 'none',
  request: {},
  response: { status: 200, envelope: 'single', schema: Type.Array(PendingInviteSchema) },
});

export const invitesWithdrawRoute = defineRoute({
  id: 'invites.withdraw',
  kind: 'command',
  method: 'DELETE',
  path: '/api/v1/invites/{id}',
  summary: 'Withdraw a pending invite: its link stops working',
  target: 'none',
  request: { params: Type.Object({ id: Uuid }) },
  response: { status: 200, envelope: 'single', schema: Type.Object({ withdrawn: Type.Boolean(), id: Type.String() }) },
});
