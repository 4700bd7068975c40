/** The one-time creation of the first administrator (decisions.md §1). */
import { type Static, Type } from 'typebox';
import { PasswordInput, SessionEnvelopeSchema, TokenInput } from './auth.routes.js';
import { defineRoute } from './define-route.js';

/** Body of `POST /api/v1/setup`. */
export const SetupBodySchema = Type.Object(
  { token: TokenInput, email: Type.String({ format: 'email', maxLength: 254 }), password: PasswordInput },
  { additionalProperties: false },
);
export type SetupBody = Static<typeof SetupBodySchema>;

export const setupCompleteRoute = defineRoute({
  id: 'setup.complete',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/setup',
  summary: 'Create the first administrator with the setup token from the server log, and sign in',
  target: 'none',
  auth: 'public',
  csrf: false,
  request: { body: SetupBodySchema },
  response: { status: 200, envelope: 'single', schema: SessionEnvelopeSchema },
  // SERVICE_UNAVAILABLE: the password-hashing line is full (503 with Retry-After, docs/access-control.md "Passwords").
  errors: ['FORBIDDEN', 'SERVICE_UNAVAILABLE'],
});
