/**
 * The TOTP second factor (decisions.md §8): the caller's own enrolment under `/api/v1/me/mfa/*`,
 * and the second sign-in step under `/api/v1/auth/login/mfa`. See docs/access-control.md "Second factor".
 */
import { type Static, Type } from 'typebox';
import { PasswordInput, SessionEnvelopeSchema } from './auth.routes.js';
import { defineRoute } from './define-route.js';
import { Nullable, Timestamp } from './shapes.js';

/** A six-digit TOTP code or a recovery code, as typed (spaces and dashes allowed). */
export const MfaCodeInput = Type.String({ minLength: 6, maxLength: 64 });

/** Wire shape of `GET /api/v1/me/mfa`. */
export const MfaStatusSchema = Type.Object({
  /** A confirmed authenticator: password sign-ins ask for a code. */
  enabled: Type.Boolean(),
  /** An enrolment was started and waits for its first code. */
  pending: Type.Boolean(),
  /** `CMS_REQUIRE_MFA` requires this user to have it (admins under `admins`). */
  required: Type.Boolean(),
  enabledAt: Nullable(Timestamp),
  recoveryCodesLeft: Type.Integer(),
});
export type MfaStatus = Static<typeof MfaStatusSchema>;

/** Answer of starting an enrolment: the secret, shown once, and the URI an authenticator app reads. */
export const MfaEnrolmentSchema = Type.Object({
  secret: Type.String(),
  otpauthUri: Type.String(),
});
export type MfaEnrolment = Static<typeof MfaEnrolmentSchema>;

/** Answer of confirming an enrolment or renewing codes: the recovery codes, shown this once. */
export const MfaRecoveryCodesSchema = Type.Object({
  status: MfaStatusSchema,
  recoveryCodes: Type.Array(Type.String()),
});
export type MfaRecoveryCodes = Static<typeof MfaRecoveryCodesSchema>;

/** Body of a request proven by a code. */
export const MfaCodeBodySchema = Type.Object({ code: MfaCodeInput }, { additionalProperties: false });

/** Body of `POST /api/v1/me/mfa/disable`: the current password or a code (TOTP or recovery). */
export const MfaDisableBodySchema = Type.Object(
  { currentPassword: Type.Optional(PasswordInput), code: Type.Optional(MfaCodeInput) },
  { minProperties: 1, additionalProperties: false },
);
export type MfaDisableBody = Static<typeof MfaDisableBodySchema>;

/** Body of `POST /api/v1/auth/login/mfa`: the token of the first step and a code. */
export const LoginMfaBodySchema = Type.Object(
  { challengeToken: Type.String({ minLength: 1, maxLength: 200 }), code: MfaCodeInput },
  { additionalProperties: false },
);
export type LoginMfaBody = Static<typeof LoginMfaBodySchema>;

export const meMfaGetRoute = defineRoute({
  id: 'me.mfa.get',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/me/mfa',
  summary: "The caller's second factor: enabled, pending, required, recovery codes left",
  target: 'none',
  request: {},
  response: { status: 200, envelope: 'single', schema: MfaStatusSchema },
  errors: ['FORBIDDEN', 'NOT_FOUND'],
});

export const meMfaEnrolRoute = defineRoute({
  id: 'me.mfa.enrol',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/me/mfa/enrol',
  summary: 'Start TOTP enrolment: a new secret and its otpauth URI, confirmed by a first code',
  target: 'none',
  request: {},
  response: { status: 200, envelope: 'single', schema: MfaEnrolmentSchema },
  errors: ['FORBIDDEN', 'INVALID_INPUT', 'NOT_FOUND'],
});

export const meMfaConfirmRoute = defineRoute({
  id: 'me.mfa.confirm',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/me/mfa/confirm',
  summary: 'Confirm enrolment with a code from the authenticator; answers the recovery codes, once',
  target: 'none',
  request: { body: MfaCodeBodySchema },
  response: { status: 200, envelope: 'single', schema: MfaRecoveryCodesSchema },
  errors: ['FORBIDDEN', 'INVALID_INPUT', 'RATE_LIMITED', 'NOT_FOUND'],
});

export const meMfaRecoveryCodesRoute = defineRoute({
  id: 'me.mfa.recoveryCodes',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/me/mfa/recovery-codes',
  summary: 'Replace the recovery codes (proven by a current code); answers the new ones, once',
  target: 'none',
  request: { body: MfaCodeBodySchema },
  response: { status: 200, envelope: 'single', schema: MfaRecoveryCodesSchema },
  errors: ['FORBIDDEN', 'INVALID_INPUT', 'RATE_LIMITED', 'NOT_FOUND'],
});

export const meMfaDisableRoute = defineRoute({
  id: 'me.mfa.disable',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/me/mfa/disable',
  summary: 'Turn the second factor off (proven by the current password or a code)',
  target: 'none',
  request: { body: MfaDisableBodySchema },
  response: { status: 200, envelope: 'single', schema: MfaStatusSchema },
  // SERVICE_UNAVAILABLE: the password-hashing line is full (503 with Retry-After, docs/access-control.md "Passwords").
  errors: ['FORBIDDEN', 'INVALID_INPUT', 'RATE_LIMITED', 'NOT_FOUND', 'SERVICE_UNAVAILABLE'],
});

export const authLoginMfaRoute = defineRoute({
  id: 'auth.login.mfa',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/auth/login/mfa',
  summary: 'Second sign-in step: a TOTP or recovery code for the challenge of login; sets the session cookies',
  target: 'none',
  auth: 'public',
  csrf: false,
  request: { body: LoginMfaBodySchema },
  response: { status: 200, envelope: 'single', schema: SessionEnvelopeSchema },
  errors: ['UNAUTHORIZED', 'RATE_LIMITED'],
});
