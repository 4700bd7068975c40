import {
  type ActionInput,
  type ActionMethod,
  type ActionResult,
  CmsError,
  invalidInput,
  type MfaChallenge,
  type MfaStatus,
  type meMfaConfirmRoute,
  type meMfaDisableRoute,
  type meMfaEnrolRoute,
  type meMfaGetRoute,
  type meMfaRecoveryCodesRoute,
  notFound,
} from '@cms/core';
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
import { assertIsCurrentPassword } from './current-password.js';
import type { AttemptSource } from './device-cookies.js';
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

type Status = typeof meMfaGetRoute;
type Enrol = typeof meMfaEnrolRoute;
type Confirm = typeof meMfaConfirmRoute;
type RenewRecoveryCodes = typeof meMfaRecoveryCodesRoute;
type Disable = typeof meMfaDisableRoute;

/** The routes this service answers directly, each method declared against its route. */
interface MfaRoutes {
  status: ActionMethod<Status, RequestContext>;
  enrol: ActionMethod<Enrol, RequestContext>;
}

/** What the MFA service needs: the database, the clock, the sealing secret, the policy and the backoff. */
export interface MfaServiceDeps {
  db: Db;
  clock: Clock;
  secret: string;
  issuer: string;
  requireMfa: RequireMfa;
  throttle: LoginThrottle;
  log: FastifyBaseLogger;
}

/**
 * TOTP enrolment, recovery codes and the code checks of the second sign-in step (decisions.md §8).
 * The checks that take a code also take the client address, charged to the login backoff, so those
 * take their route's input and answer its result with the address beside.
 */
export class MfaService implements MfaRoutes {
  private readonly sealer: ReturnType<typeof createTotpSealer>;

  constructor(private readonly deps: MfaServiceDeps) {
    this.sealer = createTotpSealer(deps.secret);
  }

  async status(ctx: RequestContext): Promise<ActionResult<Status>> {
    return this.statusOf(await this.signedInUser(ctx));
  }

  /** Starts (or restarts) an enrolment: a new secret, shown once, confirmed by its first code. */
  async enrol(ctx: RequestContext): Promise<ActionResult<Enrol>> {
    const { deps } = this;
    const user = await this.signedInUser(ctx);
    const secret = generateTotpSecret();
    const pending = { userId: user.id, totpSecret: this.sealer.seal(secret, user.id), createdAt: deps.clock() };
    // The enrolment and its audit entry commit together; a refused one rolls back (docs/audit.md).
    await withTransaction(deps.db, async (tx) => {
      if (!(await upsertPendingMfa(tx, pending))) {
        throw new CmsError('INVALID_INPUT', 'Your second factor is already on: disable it first to enrol a new one.', {
          fields: { mfa: 'is already enabled' },
        });
      }
    });
    return { secret, otpauthUri: otpauthUri(secret, deps.issuer, user.email) };
  }

  /** Confirms an enrolment with its first code; answers the recovery codes, this once. */
  async confirm(
    ctx: RequestContext,
    { body }: ActionInput<Confirm>,
    from: AttemptSource,
  ): Promise<ActionResult<Confirm>> {
    const { deps } = this;
    const user = await this.signedInUser(ctx);
    const mfa = await findUserMfa(deps.db, user.id);
    if (!mfa || mfa.enabledAt !== null) {
      throw invalidInput({
        'body.code': 'confirms an enrolment, and none is pending: start one with POST /api/v1/me/mfa/enrol',
      });
    }
    await this.assertCode(user, body.code, 'enrolment', from);
    const recoveryCodes = await withTransaction(deps.db, async (tx) => {
      await markMfaEnabled(tx, user.id, deps.clock());
      return issueRecoveryCodes(tx, user.id);
    });
    return { status: await this.statusOf(user), recoveryCodes };
  }

  /** Replaces the recovery codes, proven by a current code; answers the new ones, this once. */
  async renewRecoveryCodes(
    ctx: RequestContext,
    { body }: ActionInput<RenewRecoveryCodes>,
    from: AttemptSource,
  ): Promise<ActionResult<RenewRecoveryCodes>> {
    const user = await this.signedInUser(ctx);
    await this.assertCode(user, body.code, 'enabled', from);
    const recoveryCodes = await withTransaction(this.deps.db, (tx) => issueRecoveryCodes(tx, user.id));
    return { status: await this.statusOf(user), recoveryCodes };
  }

  /** Turns the second factor off (or drops a pending enrolment), proven by the password or a code. */
  async disable(
    ctx: RequestContext,
    { body }: ActionInput<Disable>,
    from: AttemptSource,
  ): Promise<ActionResult<Disable>> {
    const { deps } = this;
    const user = await this.signedInUser(ctx);
    if (body.code !== undefined) {
      await this.assertCode(user, body.code, 'enabled', from);
    } else if (body.currentPassword !== undefined) {
      await assertIsCurrentPassword(deps.throttle, user, body.currentPassword, from);
    }
    await withTransaction(deps.db, (tx) => deleteUserMfa(tx, user.id));
    return this.statusOf(user);
  }

  /** Does this user have a confirmed second factor (password sign-ins then need a second step)? */
  async isEnabled(tx: Queryable, userId: string): Promise<boolean> {
    return (await findUserMfa(tx, userId))?.enabledAt != null;
  }

  /** Opens a pending second step after a right password: a token, not a session. */
  async startChallenge(tx: Queryable, userId: string): Promise<MfaChallenge> {
    const now = this.deps.clock();
    const token = generateToken();
    const expiresAt = new Date(now.getTime() + MFA_CHALLENGE_TTL_MS);
    await insertMfaChallenge(tx, { tokenHash: hashToken(token), userId, createdAt: now, expiresAt });
    return { challengeToken: token, expiresAt: expiresAt.toISOString() };
  }

  /** Checks and spends a code of the second sign-in step. */
  spendSignInCode(tx: Queryable, userId: string, code: string): Promise<boolean> {
    return this.spendCode(tx, userId, code, 'enabled');
  }

  /** Does the code match, and is it unused? Spends it when it does (a TOTP step, a recovery code). */
  private async spendCode(tx: Queryable, userId: string, code: string, stage: CodeStage): Promise<boolean> {
    const { deps } = this;
    const mfa = await findUserMfa(tx, userId);
    if (!mfa || (mfa.enabledAt !== null) !== (stage === 'enabled')) return false;
    if (isTotpCode(code)) {
      const secret = this.sealer.open(mfa.totpSecret, userId);
      if (secret === null) {
        deps.log.warn({ userId }, 'a TOTP secret does not open with this CMS_SECRET: the user needs a recovery code');
        return false;
      }
      const step = totpStepOf(secret, code, deps.clock());
      return step !== null && (await useTotpStepIfNewer(tx, userId, step, stage === 'enabled'));
    }
    return stage === 'enabled' && (await useRecoveryCode(tx, userId, recoveryCodeHash(code), deps.clock()));
  }

  /**
   * A code check of a signed-in user, charged to the login backoff like a password: reserved before
   * the check, given back only when it passes, so codes cannot be guessed faster than passwords.
   */
  private async assertCode(user: UserRow, code: string, stage: CodeStage, from: AttemptSource): Promise<void> {
    const { throttle } = this.deps;
    const keys = throttle.keysFor(user.email, from);
    const reserved = await throttle.reserveAttempt(keys);
    if (!(await this.spendCode(this.deps.db, user.id, code, stage))) {
      throw invalidInput({
        'body.code': 'is not a current code of your authenticator app, nor an unused recovery code: try the next code',
      });
    }
    await throttle.recordSuccess(keys, reserved);
  }

  private async signedInUser(ctx: RequestContext): Promise<UserRow> {
    if (!isUserPrincipal(ctx.principal)) {
      throw new CmsError('FORBIDDEN', 'Only a signed-in user has a second factor: sign in to the Studio.');
    }
    const user = await findUserById(this.deps.db, ctx.principal.id);
    if (!user) throw notFound('User');
    return user;
  }

  private async statusOf(user: UserRow): Promise<MfaStatus> {
    const { deps } = this;
    const mfa = await findUserMfa(deps.db, user.id);
    return {
      enabled: mfa?.enabledAt != null,
      pending: mfa !== null && mfa.enabledAt === null,
      required: isMfaRequired(deps.requireMfa, { role: user.role, hasPassword: user.passwordHash !== null }),
      enabledAt: mfa?.enabledAt?.toISOString() ?? null,
      recoveryCodesLeft: mfa?.enabledAt ? await countUnusedRecoveryCodes(deps.db, user.id) : 0,
    };
  }
}

/** New recovery codes for the user, replacing the old ones; answered in clear this once, stored hashed. */
async function issueRecoveryCodes(tx: Queryable, userId: string): Promise<string[]> {
  const codes = generateRecoveryCodes();
  await replaceRecoveryCodes(tx, userId, codes.map(recoveryCodeHash));
  return codes;
}
