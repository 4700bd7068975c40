import { CmsError, type LoginBody, type LoginMfaBody, type MfaChallenge } from '@cms/core';
import { noteAuditActor } from '../../audit/audit-scope.js';
import type { Clock } from '../../clock.js';
import type { RequestContext } from '../../http/request-context.js';
import { type Queryable, withTransaction } from '../../storage/db.js';
import {
  chargeMfaChallenge,
  deleteMfaChallenge,
  findLiveMfaChallenge,
} from '../../storage/repositories/mfa.repository.js';
import { findUserByEmail, replacePasswordHashIfUnchanged } from '../../storage/repositories/users.repository.js';
import {
  hashPasswordUnlessBusy,
  passwordNeedsRehash,
  verifyAgainstNothing,
  verifyPassword,
} from './bounded-password-hashing.js';
import type { AttemptSource } from './device-cookies.js';
import type { LoginThrottle } from './login-throttle.js';
import { MFA_CHALLENGE_MAX_FAILURES, type MfaService } from './mfa.service.js';
import { hashToken } from './secret-tokens.js';
import type { IssuedSession, SessionsService, SignInOrigin } from './sessions.service.js';
import { normalizeEmail } from './user-records.js';

/** Where a sign-in comes from; the client address and the device cookie feed the backoff. */
type SignInFrom = SignInOrigin & { from: AttemptSource };

/** A sign-in attempt: core's body (credentials) plus where it came from. */
export type LoginInput = LoginBody & SignInFrom;

/** The second sign-in step: core's body (the first step's token, a code) plus where it came from. */
export type LoginMfaInput = LoginMfaBody & SignInFrom;

/**
 * What a right password leads to: a session with the device cookie to set, or a second step when the
 * user has a second factor.
 */
export type LoginOutcome =
  | { session: IssuedSession; deviceCookie: string; mfa?: never }
  | { mfa: MfaChallenge; session?: never; deviceCookie?: never };

/** A finished sign-in: its session, and the device cookie that makes this browser a known device. */
export interface SignedIn {
  session: IssuedSession;
  deviceCookie: string;
}

/** Sign-in and sign-out with email and password, and the second step of users with a second factor. */
export function createAuthService(deps: {
  db: Queryable;
  sessions: SessionsService;
  throttle: LoginThrottle;
  mfa: MfaService;
  clock: Clock;
}) {
  const stepEnded = () =>
    new CmsError(
      'UNAUTHORIZED',
      'This sign-in step has expired or was already used: sign in again with your password.',
    );
  return {
    /**
     * Verifies the password and starts a session. Unknown emails cost the same time as wrong
     * passwords and give the same answer; the backoff counts both (login-throttle.ts).
     */
    async login(_ctx: RequestContext, input: LoginInput): Promise<LoginOutcome> {
      const email = normalizeEmail(input.email);
      // The entry of a refused attempt names the address tried (never the password).
      noteAuditActor({ type: 'anonymous', id: 'anonymous', label: email });
      const keys = deps.throttle.keysFor(email, input.from);
      const reserved = await deps.throttle.reserveAttempt(keys);
      const user = await deps.throttle.check(reserved, () => findUserByEmail(deps.db, email));
      const matches = await deps.throttle.check(reserved, () =>
        user?.passwordHash ? verifyPassword(user.passwordHash, input.password) : verifyAgainstNothing(input.password),
      );
      if (!user?.passwordHash || !matches) {
        throw new CmsError('UNAUTHORIZED', 'Wrong email or password.');
      }
      if (user.disabledAt) {
        // The right password is no guess: the reserved attempt is given back, as before the reservation.
        await deps.throttle.refund(reserved);
        throw new CmsError('UNAUTHORIZED', 'This account is disabled: ask an administrator.');
      }
      noteAuditActor({ type: 'user', id: user.id, label: user.email });
      if (passwordNeedsRehash(user.passwordHash)) {
        // Parameters rose since this hash was made: redo it now that we know the password (a later
        // sign-in does it when the hashing line is full now).
        const rehashed = await hashPasswordUnlessBusy(input.password);
        if (rehashed) await replacePasswordHashIfUnchanged(deps.db, user.id, user.passwordHash, rehashed);
      }
      if (await deps.mfa.isEnabled(deps.db, user.id)) {
        // The password attempt is given back, but the email's failures stay: only a right code clears
        // them, so alternating a known password with guessed codes cannot reset the backoff.
        await deps.throttle.refund(reserved);
        return { mfa: await deps.mfa.startChallenge(deps.db, user.id) };
      }
      await deps.throttle.recordSuccess(keys, reserved);
      // The session is the sign-in's change: its audit entry commits with it (docs/audit.md).
      const session = await withTransaction(deps.db, (tx) => deps.sessions.issue(tx, user, input));
      return { session, deviceCookie: deps.throttle.deviceCookieFor(keys) };
    },

    /**
     * The second step: a TOTP or recovery code for a live challenge of `login`. Each code is charged
     * to the same backoff as passwords (login-throttle.ts) before it is checked; a challenge
     * allows a few wrong codes, then the password is needed again.
     */
    async loginSecondStep(input: LoginMfaInput): Promise<SignedIn> {
      const tokenHash = hashToken(input.challengeToken);
      const challenge = await findLiveMfaChallenge(deps.db, tokenHash, deps.clock());
      if (!challenge) throw stepEnded();
      noteAuditActor({ type: 'user', id: challenge.userId, label: challenge.email });
      const keys = deps.throttle.keysFor(challenge.email, input.from);
      const reserved = await deps.throttle.reserveAttempt(keys);
      if (!(await deps.mfa.spendSignInCode(deps.db, challenge.userId, input.code))) {
        await chargeMfaChallenge(deps.db, tokenHash, MFA_CHALLENGE_MAX_FAILURES);
        throw new CmsError(
          'UNAUTHORIZED',
          'Wrong code: enter the current code of your authenticator app, or an unused recovery code.',
        );
      }
      if (!(await deleteMfaChallenge(deps.db, tokenHash))) throw stepEnded();
      if (challenge.disabledAt) {
        await deps.throttle.refund(reserved);
        throw new CmsError('UNAUTHORIZED', 'This account is disabled: ask an administrator.');
      }
      await deps.throttle.recordSuccess(keys, reserved);
      const user = { id: challenge.userId, email: challenge.email };
      const session = await withTransaction(deps.db, (tx) => deps.sessions.issue(tx, user, input));
      return { session, deviceCookie: deps.throttle.deviceCookieFor(keys) };
    },

    /** Ends the request's session; `success` is false when the caller has none (an API key). */
    async logout(ctx: RequestContext): Promise<{ success: boolean }> {
      return { success: await deps.sessions.endCurrent(ctx) };
    },
  };
}

/** The auth service's type, for action factories. */
export type AuthService = ReturnType<typeof createAuthService>;
