/** Command-line sign-in: a challenge a user approves in the Studio, traded for a `cms_key_cli_` key. */
import { type Static, Type } from 'typebox';
import { defineRoute } from './define-route.js';
import { ENVIRONMENT_NAME_PATTERN, Nullable, PROJECT_SLUG_PATTERN, StringEnum, Timestamp } from './shapes.js';

/** Challenge ids are base64url of 32 random bytes. */
const ChallengeIdInput = Type.String({ minLength: 1, maxLength: 200 });

/** Body of `POST /api/v1/auth/cli/start`. */
export const CliStartBodySchema = Type.Object(
  {
    project: Type.String({ pattern: PROJECT_SLUG_PATTERN }),
    environment: Type.String({ pattern: ENVIRONMENT_NAME_PATTERN }),
    callbackUrl: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
  },
  { additionalProperties: false },
);
export type CliStartBody = Static<typeof CliStartBodySchema>;

/**
 * Answer of start. `userCode` (`K7QM-3XTP`) is printed by the command line and shown by the authorize
 * page before approving, so the user can check the page asks about the command they started.
 */
export const CliStartedSchema = Type.Object({
  challengeId: Type.String(),
  authorizeUrl: Type.String(),
  userCode: Type.String(),
  expiresAt: Timestamp,
});

/** Where a challenge stands: `denied` once the user refused it in the Studio. */
export const CliChallengeStatusSchema = StringEnum(['pending', 'authorized', 'exchanged', 'denied']);

/** What the authorize page shows before approving. */
export const CliChallengeSchema = Type.Object({
  challengeId: Type.String(),
  project: Type.String(),
  environment: Type.String(),
  userCode: Type.String(),
  status: CliChallengeStatusSchema,
  callbackUrl: Nullable(Type.String()),
  expiresAt: Timestamp,
});
export type CliChallenge = Static<typeof CliChallengeSchema>;

/** Body of `POST /api/v1/auth/cli/authorize`. */
export const CliAuthorizeBodySchema = Type.Object({ challengeId: ChallengeIdInput }, { additionalProperties: false });

/** Answer of authorize: the one-time code. */
export const CliAuthorizedSchema = Type.Object({ success: Type.Boolean(), code: Type.String() });

/** Body of `POST /api/v1/auth/cli/deny`. */
export const CliDenyBodySchema = Type.Object({ challengeId: ChallengeIdInput }, { additionalProperties: false });

/** Answer of deny. */
export const CliDeniedSchema = Type.Object({ success: Type.Boolean() });

/** Body of `POST /api/v1/auth/cli/poll`. */
export const CliPollBodySchema = Type.Object({ challengeId: ChallengeIdInput }, { additionalProperties: false });

/** Answer of poll: where the challenge stands, for a command line waiting on it. */
export const CliPolledSchema = Type.Object({ status: CliChallengeStatusSchema });

/** Body of `POST /api/v1/auth/cli/exchange`. */
export const CliExchangeBodySchema = Type.Object(
  { challengeId: ChallengeIdInput, code: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

/** Answer of exchange: the key, shown this once. */
export const CliExchangedSchema = Type.Object({ apiKey: Type.String(), expiresAt: Timestamp });

export const authCliStartRoute = defineRoute({
  id: 'auth.cli.start',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/auth/cli/start',
  summary: 'Start a command-line sign-in: a challenge and the Studio address where a user approves it',
  target: 'none',
  auth: 'public',
  csrf: false,
  request: { body: CliStartBodySchema },
  response: { status: 200, envelope: 'single', schema: CliStartedSchema },
  errors: ['RATE_LIMITED'],
});

export const authCliChallengeRoute = defineRoute({
  id: 'auth.cli.challenge',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/auth/cli/challenges/{id}',
  summary: 'Which project, environment and expiry a command-line sign-in asks to approve (session only)',
  target: 'none',
  request: { params: Type.Object({ id: ChallengeIdInput }) },
  response: { status: 200, envelope: 'single', schema: CliChallengeSchema },
});

export const authCliAuthorizeRoute = defineRoute({
  id: 'auth.cli.authorize',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/auth/cli/authorize',
  summary: 'Approve a command-line sign-in (session and CSRF); answers the one-time code',
  target: 'none',
  request: { body: CliAuthorizeBodySchema },
  response: { status: 200, envelope: 'single', schema: CliAuthorizedSchema },
  errors: ['PROJECT_NOT_FOUND', 'ENVIRONMENT_NOT_FOUND', 'NOT_FOUND'],
});

export const authCliDenyRoute = defineRoute({
  id: 'auth.cli.deny',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/auth/cli/deny',
  summary: 'Refuse a command-line sign-in (session and CSRF); the waiting command stops at once',
  target: 'none',
  request: { body: CliDenyBodySchema },
  response: { status: 200, envelope: 'single', schema: CliDeniedSchema },
  errors: ['NOT_FOUND'],
});

export const authCliPollRoute = defineRoute({
  id: 'auth.cli.poll',
  kind: 'query',
  method: 'POST',
  path: '/api/v1/auth/cli/poll',
  summary: 'Where a command-line sign-in stands (pending, authorized, exchanged or denied), for the waiting command',
  target: 'none',
  auth: 'public',
  csrf: false,
  request: { body: CliPollBodySchema },
  response: { status: 200, envelope: 'single', schema: CliPolledSchema },
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const authCliExchangeRoute = defineRoute({
  id: 'auth.cli.exchange',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/auth/cli/exchange',
  summary: 'Trade an approved challenge and its code for a cms_key_cli_ key (90 days)',
  target: 'none',
  auth: 'public',
  csrf: false,
  request: { body: CliExchangeBodySchema },
  response: { status: 200, envelope: 'single', schema: CliExchangedSchema },
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});
