import { CmsError } from '@cms/core';
import type { RequestContext } from '../../http/request-context.js';
import type { Queryable } from '../../storage/db.js';
import { findUserByEmail, replacePasswordHashIfUnchanged } from '../../storage/repositories/users.repository.js';
import type { LoginThrottle } from './login-throttle.js';
import { hashPassword, passwordNeedsRehash, verifyAgainstNothing, verifyPassword } from './password-hashing.js';
import type { IssuedSession, SessionsService, SignInOrigin } from './sessions.service.js';
import { normalizeEmail } from './user-records.js';

/** A sign-in attempt: credentials plus where it came from (the client address feeds the backoff). */
export interface LoginInput extends SignInOrigin {
  email: string;
  password: string;
  /** The client address as seen through trusted proxies. */
  clientAddress: string;
}

/** Sign-in and sign-out with email and password. */
export function createAuthService(deps: { db: Queryable; sessions: SessionsService; throttle: LoginThrottle }) {
  return {
    /**
     * Verifies the password and starts a session. Unknown emails cost the same time as wrong
     * passwords and give the same answer; the backoff counts both, per email and per address.
     */
    async login(_ctx: RequestContext, input: LoginInput): Promise<IssuedSession> {
      const email = normalizeEmail(input.email);
      const keys = deps.throttle.keysFor(email, input.clientAddress);
      await deps.throttle.assertNotThrottled(keys);
      const user = await findUserByEmail(deps.db, email);
      const matches = user?.passwordHash
        ? await verifyPassword(user.passwordHash, input.password)
        : await verifyAgainstNothing(input.password);
      if (!user?.passwordHash || !matches) {
        await deps.throttle.recordFailure(keys);
        throw new CmsError('UNAUTHORIZED', 'Wrong email or password.');
      }
      if (user.disabledAt) throw new CmsError('UNAUTHORIZED', 'This account is disabled: ask an administrator.');
      await deps.throttle.recordSuccess(keys);
      if (passwordNeedsRehash(user.passwordHash)) {
        // Parameters rose since this hash was made: redo it now that we know the password.
        await replacePasswordHashIfUnchanged(deps.db, user.id, user.passwordHash, await hashPassword(input.password));
      }
      return deps.sessions.issue(deps.db, user, input);
    },

    /** Ends the request's session; `success` is false when the caller has none (an API key). */
    async logout(ctx: RequestContext): Promise<{ success: boolean }> {
      return { success: await deps.sessions.endCurrent(ctx) };
    },
  };
}

/** The auth service's type, for action factories. */
export type AuthService = ReturnType<typeof createAuthService>;
