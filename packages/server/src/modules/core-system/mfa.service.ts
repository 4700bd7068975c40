import { CmsError, invalidInput, type MfaChallenge, type MfaStatus, notFound } from '@cms/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { RequestContext } from '../../http/request-context.js';
import { type Db, type Queryable, withTransaction } from '../../storage/db.js';
import {
  countUnusedRecoveryCodes,
  deleteUserMfa,
  findUserMfa,
  insertMfaChallenge,
  markMfaEnabled,
  replaceRecoveryCodes,
  upsertPendingMfa,
  useRecoveryCode,
  useTotpStepIfNewer,
} from '../../storage/repositories/mfa.repository.js';
import { findUserById, type UserRow } from '../../storage/repositories/users.repository.js';
import { verifyAgainstNothing, verifyPassword } from './bounded-password-hashing.js';
import type { LoginThrottle } from './login-throttle.js';
import { generateToken, hashToken } from './secret-tokens.js';
import {
  createTotpSealer,
  generateRecoveryCodes,
  generateTotpSecret,
  isTotpCode,
  otpauthUri,
  recoveryCodeHash,
  totpStepOf,
} from './totp.js';
import { isUserPrincipal } from './user-principal.js';

/** A pending second sign-in step lasts five minutes and allows five wrong codes (then sign in again). */
export const MFA_CHALLENGE_TTL_MS = 5 * 60_000;
export const MFA_CHALLENGE_MAX_FAILURES = 5;

/** `CMS_REQUIRE_MFA`: `admins` requires a second factor of administrators who sign in with a password. */
export type RequireMfa = 'off' | 'admins';

/**
 * Must this user have a second factor? Administrators under `CMS_REQUIRE_MFA=admins`, when they have
 * a password: a user who signs in only through single sign-on has the identity provider's factors.
 */
export function isMfaRequired(policy: RequireMfa, user: { role: string; hasPassword: boolean }): boolean {
  return policy === 'admins' && user.role === 'admin' && user.hasPassword;
}

/** Which code a check accepts: an enrolment's first code (TOTP only), or a confirmed factor's (TOTP or recovery). */
type CodeStage = 'enrolment' | 'enabled';

/** TOTP enrolment, recovery codes and the code checks of the second sign-in step (decisions.md §8). */
export function createMfaService(deps: {
  db: Db;
  clock: Clock;
  secret: string;
  issuer: string;
  requireMfa: RequireMfa;
  throttle: LoginThrottle;
  log: FastifyBaseLogger;
}) {
  const sealer = createTotpSealer(deps.secret);

  /** Does the code match, and is it unused? Spends it when it does (a TOTP step, a recovery code). */
  const spendCode = async (tx: Queryable, userId: string, code: string, stage: CodeStage): Promise<boolean> => {
    const mfa = await findUserMfa(tx, userId);
    if (!mfa || (mfa.enabledAt !== null) !== (stage === 'enabled')) return false;
    if (isTotpCode(code)) {
      const secret = sealer.open(mfa.totpSecret, userId);
      if (secret === null) {
        deps.log.warn({ userId }, 'a TOTP secret does not open with this CMS_SECRET: the user needs a recovery code');
        return false;
      }
      const step = totpStepOf(secret, code, deps.clock());
      return step !== null && (await useTotpStepIfNewer(tx, userId, step, stage === 'enabled'));
    }
    return stage === 'enabled' && (await useRecoveryCode(tx, userId, recoveryCodeHash(code), deps.clock()));
  };

  /**
   * A code check of a signed-in user, charged to the login backoff like a password: reserved before
   * the check, given back only when it passes, so codes cannot be guessed faster than passwords.
   */
  const assertCode = async (user: UserRow, code: string, stage: CodeStage, clientAddress: string): Promise<void> => {
    const keys = deps.throttle.keysFor(user.email, clientAddress);
    const reserved = await deps.throttle.reserveAttempt(keys);
    if (!(await spendCode(deps.db, user.id, code, stage))) {
      throw invalidInput({
        'body.code': 'is not a current code of your authenticator app, nor an unused recovery code: try the next code',
      });
    }
    await deps.throttle.recordSuccess(keys, reserved);
  };

  const signedInUser = async (ctx: RequestContext): Promise<UserRow> => {
    if (!isUserPrincipal(ctx.principal)) {
      throw new CmsError('FORBIDDEN', 'Only a signed-in user has a second factor: sign in to the Studio.');
    }
    const user = await findUserById(deps.db, ctx.principal.id);
    if (!user) throw notFound('User');
    return user;
  };

  const statusOf = async (user: UserRow): Promise<MfaStatus> => {
    const mfa = await findUserMfa(deps.db, user.id);
    return {
      enabled: mfa?.enabledAt != null,
      pending: mfa !== null && mfa.enabledAt === null,
      required: isMfaRequired(deps.requireMfa, { role: user.role, hasPassword: user.passwordHash !== null }),
      enabledAt: mfa?.enabledAt?.toISOString() ?? null,
      recoveryCodesLeft: mfa?.enabledAt ? await countUnusedRecoveryCodes(deps.db, user.id) : 0,
    };
  };

  const issueRecoveryCodes = async (tx: Queryable, userId: string): Promise<string[]> => {
    const codes = generateRecoveryCodes();
    await replaceRecoveryCodes(tx, userId, codes.map(recoveryCodeHash));
    return codes;
  };

  return {
    async status(ctx: RequestContext): Promise<MfaStatus> {
      return statusOf(await signedInUser(ctx));
    },

    /** Starts (or restarts) an enrolment: a new secret, shown once, confirmed by its first code. */
    async enrol(ctx: RequestContext): Promise<{ secret: string; otpauthUri: string }> {
      const user = await signedInUser(ctx);
      const secret = generateTotpSecret();
      const stored = await upsertPendingMfa(deps.db, {
        userId: user.id,
        totpSecret: sealer.seal(secret, user.id),
        createdAt: deps.clock(),
      });
      if (!stored) {
        throw new CmsError('INVALID_INPUT', 'Your second factor is already on: disable it first to enrol a new one.', {
          fields: { mfa: 'is already enabled' },
        });
      }
      return { secret, otpauthUri: otpauthUri(secret, deps.issuer, user.email) };
    },

    /** Confirms an enrolment with its first code; answers the recovery codes, this once. */
    async confirm(ctx: RequestContext, input: { code: string; clientAddress: string }) {
      const user = await signedInUser(ctx);
      const mfa = await findUserMfa(deps.db, user.id);
      if (!mfa || mfa.enabledAt !== null) {
        throw invalidInput({
          'body.code': 'confirms an enrolment, and none is pending: start one with POST /api/v1/me/mfa/enrol',
        });
      }
      await assertCode(user, input.code, 'enrolment', input.clientAddress);
      const recoveryCodes = await withTransaction(deps.db, async (tx) => {
        await markMfaEnabled(tx, user.id, deps.clock());
        return issueRecoveryCodes(tx, user.id);
      });
      return { status: await statusOf(user), recoveryCodes };
    },

    /** Replaces the recovery codes, proven by a current code; answers the new ones, this once. */
    async renewRecoveryCodes(ctx: RequestContext, input: { code: string; clientAddress: string }) {
      const user = await signedInUser(ctx);
      await assertCode(user, input.code, 'enabled', input.clientAddress);
      const recoveryCodes = await withTransaction(deps.db, (tx) => issueRecoveryCodes(tx, user.id));
      return { status: await statusOf(user), recoveryCodes };
    },

    /** Turns the second factor off (or drops a pending enrolment), proven by the password or a code. */
    async disable(ctx: RequestContext, input: { currentPassword?: string; code?: string; clientAddress: string }) {
      const user = await signedInUser(ctx);
      if (input.code !== undefined) {
        await assertCode(user, input.code, 'enabled', input.clientAddress);
      } else if (input.currentPassword !== undefined) {
        const keys = deps.throttle.keysFor(user.email, input.clientAddress);
        const reserved = await deps.throttle.reserveAttempt(keys);
        const matches = user.passwordHash
          ? await verifyPassword(user.passwordHash, input.currentPassword)
          : await verifyAgainstNothing(input.currentPassword);
        if (!matches) throw invalidInput({ 'body.currentPassword': 'is not your current password' });
        await deps.throttle.recordSuccess(keys, reserved);
      }
      await withTransaction(deps.db, (tx) => deleteUserMfa(tx, user.id));
      return statusOf(user);
    },

    /** Does this user have a confirmed second factor (password sign-ins then need a second step)? */
    async isEnabled(tx: Queryable, userId: string): Promise<boolean> {
      return (await findUserMfa(tx, userId))?.enabledAt != null;
    },

    /** Opens a pending second step after a right password: a token, not a session. */
    async startChallenge(tx: Queryable, userId: string): Promise<MfaChallenge> {
      const now = deps.clock();
      const token = generateToken();
      const expiresAt = new Date(now.getTime() + MFA_CHALLENGE_TTL_MS);
      await insertMfaChallenge(tx, { tokenHash: hashToken(token), userId, createdAt: now, expiresAt });
      return { challengeToken: token, expiresAt: expiresAt.toISOString() };
    },

    /** Checks and spends a code of the second sign-in step. */
    spendSignInCode(tx: Queryable, userId: string, code: string): Promise<boolean> {
      return spendCode(tx, userId, code, 'enabled');
    },
  };
}

/** The MFA service's type. */
export type MfaService = ReturnType<typeof createMfaService>;
