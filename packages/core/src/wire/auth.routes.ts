/** Sign-in with email and password, sign-out, and the caller's own sessions (decisions.md §1). */
import { type Static, Type } from 'typebox';
import { defineRoute } from './define-route.js';
import { Nullable, Timestamp, Uuid } from './shapes.js';

/** Bounds request strings before any work is done on them (the password rules live in the service). */
export const PasswordInput = Type.String({ maxLength: 4096 });
/** A sign-in email as typed (checked against the stored one, not validated as an address). */
export const EmailInput = Type.String({ minLength: 1, maxLength: 320 });
/** A one-time token from a link or the server log. */
export const TokenInput = Type.String({ minLength: 1, maxLength: 200 });

/** Body of `POST /api/v1/auth/login`. */
export const LoginBodySchema = Type.Object(
  { email: EmailInput, password: PasswordInput },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBodySchema>;

/** Wire shape of a session (interface.md "Session") with listing extras. */
export const SessionSchema = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  email: Type.String(),
  issuedAt: Timestamp,
  expiresAt: Timestamp,
  lastSeenAt: Timestamp,
  userAgent: Nullable(Type.String()),
  ipAddress: Nullable(Type.String()),
  current: Type.Boolean(),
});
export type Session = Static<typeof SessionSchema>;

/** `{ session }`: the answer of login, setup, invite acceptance and the other sign-ins. */
export const SessionEnvelopeSchema = Type.Object({ session: SessionSchema });
export type SessionEnvelope = Static<typeof SessionEnvelopeSchema>;

/**
 * The first step's answer when the user has a second factor (docs/access-control.md "Second factor"):
 * no session yet, a short-lived token to send with a code to `POST /api/v1/auth/login/mfa`.
 */
export const MfaChallengeSchema = Type.Object({ challengeToken: Type.String(), expiresAt: Timestamp });
export type MfaChallenge = Static<typeof MfaChallengeSchema>;

/** Answer of login: `{ session }`, or `{ mfa }` when a second step is needed. */
export const LoginResultSchema = Type.Union([SessionEnvelopeSchema, Type.Object({ mfa: MfaChallengeSchema })]);
export type LoginResult = Static<typeof LoginResultSchema>;

/** Answer of ending a session. */
export const SessionEndedSchema = Type.Object({ deleted: Type.Boolean(), id: Type.String(), current: Type.Boolean() });
export type SessionEnded = Static<typeof SessionEndedSchema>;

/** Answer of logout. */
export const LogoutSchema = Type.Object({ success: Type.Boolean() });

export const authLoginRoute = defineRoute({
  id: 'auth.login',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/auth/login',
  summary:
    'Sign in with email and password; sets the session cookies, or answers `{ mfa }` when a second step is needed',
  // Login may carry the routing headers (interface.md); they play no part in signing in.
  target: 'none',
  auth: 'public',
  csrf: false,
  request: { body: LoginBodySchema },
  response: { status: 200, envelope: 'single', schema: LoginResultSchema },
  // SERVICE_UNAVAILABLE: the password-hashing line is full (503 with Retry-After, docs/access-control.md "Passwords").
  errors: ['UNAUTHORIZED', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE'],
});

export const authLogoutRoute = defineRoute({
  id: 'auth.logout',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/auth/logout',
  summary: 'End the current session and clear its cookies',
  target: 'none',
  request: {},
  response: { status: 200, envelope: 'single', schema: LogoutSchema },
});

export const authSessionsListRoute = defineRoute({
  id: 'auth.sessions.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/auth/sessions',
  summary: "List the caller's own active sessions",
  target: 'none',
  request: {},
  response: { status: 200, envelope: 'single', schema: Type.Array(SessionSchema) },
});

export const authSessionsEndRoute = defineRoute({
  id: 'auth.sessions.end',
  kind: 'command',
  method: 'DELETE',
  path: '/api/v1/auth/sessions/{id}',
  summary: "End one of the caller's own sessions",
  target: 'none',
  request: { params: Type.Object({ id: Uuid }) },
  response: { status: 200, envelope: 'single', schema: SessionEndedSchema },
});
