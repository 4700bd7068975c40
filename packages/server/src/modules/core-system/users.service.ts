import {
  CmsError,
  type CreateUserBody,
  invalidInput,
  notFound,
  type Page,
  type PasswordChangeBody,
  type PasswordChanged,
  type UpdateUserBody,
} from '@cms/core';
import type { Clock } from '../../clock.js';
import type { RequestContext } from '../../http/request-context.js';
import type { Db, Queryable } from '../../storage/db.js';
import { listGrantsOfUser } from '../../storage/repositories/grants.repository.js';
import { deleteUserMfa } from '../../storage/repositories/mfa.repository.js';
import {
  countOtherEnabledAdmins,
  countUsers,
  deleteUser,
  findUserById,
  listUsers,
  type UserRow,
  updateUser,
} from '../../storage/repositories/users.repository.js';
import { assertCanGrantRole, assertCanManageUser } from './access-rules.js';
import { assertPasswordPolicy, hashPassword } from './bounded-password-hashing.js';
import { assertIsCurrentPassword as assertCurrentPasswordOf } from './current-password.js';
import type { AttemptSource } from './device-cookies.js';
import type { LoginThrottle } from './login-throttle.js';
import type { SessionsService } from './sessions.service.js';
import { isUserPrincipal } from './user-principal.js';
import { createUserRecord, normalizeEmail, toUserView, type UserView } from './user-records.js';

// Serialises changes that could remove the last enabled administrator.
const ADMINS_LOCK_KEY = 7_312_004;

/** Input of `POST /api/v1/users`. */
export type CreateUserInput = CreateUserBody;

/**
 * Input of `PATCH /api/v1/users/{id}`: core's body, and the client address, charged by the login
 * backoff when `currentPassword` is checked.
 */
export type UpdateUserInput = UpdateUserBody & { from?: AttemptSource };

/** Users of the instance (`users:manage`): list, create, change, delete; and one's own password. */
export function createUsersService(deps: { db: Db; sessions: SessionsService; clock: Clock; throttle: LoginThrottle }) {
  const assertIsCurrentPassword = (user: UserRow, currentPassword: string, from: AttemptSource) =>
    assertCurrentPasswordOf(deps.throttle, user, currentPassword, from);

  /**
   * A signed-in user changing their own password through `users.update` proves they know the current
   * one. An administrator resetting another user's password, or an API key, needs none.
   */
  const assertCurrentPassword = async (ctx: RequestContext, id: string, input: UpdateUserInput): Promise<void> => {
    if (input.password === undefined || ctx.principal.type !== 'user' || ctx.principal.id !== id) return;
    if (input.currentPassword === undefined) {
      throw invalidInput({
        'body.currentPassword': 'is required to change your own password: send the one you sign in with now',
      });
    }
    const self = await findUserById(deps.db, id);
    if (!self) throw notFound('User');
    await assertIsCurrentPassword(self, input.currentPassword, input.from ?? { address: '', deviceCookie: null });
  };

  /** Loads a user the caller may manage: NOT_FOUND when absent, FORBIDDEN when it holds more. */
  const loadManageable = async (ctx: RequestContext, tx: Queryable, id: string): Promise<UserRow> => {
    const user = await findUserById(tx, id);
    if (!user) throw notFound('User');
    assertCanManageUser(ctx.principal, { role: user.role, grants: await listGrantsOfUser(tx, id) });
    return user;
  };

  /** INVALID_INPUT when the change would leave no enabled administrator (nobody could manage the instance). */
  const assertKeepsAnAdmin = async (tx: Queryable, user: UserRow, field: string): Promise<void> => {
    if (user.role !== 'admin' || user.disabledAt !== null) return;
    await tx.query('select pg_advisory_xact_lock($1)', [ADMINS_LOCK_KEY]);
    if ((await countOtherEnabledAdmins(tx, user.id)) === 0) {
      throw invalidInput({ [field]: 'would remove the last enabled administrator: make another one first' });
    }
  };

  return {
    async list(_ctx: RequestContext, page: { limit: number; offset: number }): Promise<Page<UserView>> {
      const [rows, total] = await Promise.all([listUsers(deps.db, page), countUsers(deps.db)]);
      return { items: rows.map(toUserView), total, limit: page.limit, offset: page.offset };
    },

    async get(_ctx: RequestContext, id: string): Promise<UserView> {
      const user = await findUserById(deps.db, id);
      if (!user) throw notFound('User');
      return toUserView(user);
    },

    /** Creates a user; without a password they cannot sign in until one is set. */
    async create(ctx: RequestContext, input: CreateUserInput): Promise<UserView> {
      assertCanGrantRole(ctx.principal, input.role, null);
      if (input.password !== undefined) assertPasswordPolicy(input.password);
      const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
      const email = normalizeEmail(input.email);
      const user = { email, role: input.role, passwordHash, now: deps.clock() };
      // In a transaction, so the audit entry commits with the user; a taken email rolls back (docs/audit.md).
      const row = await deps.db.transaction((tx) => createUserRecord(tx, user));
      return toUserView(row);
    },

    /**
     * The signed-in person changes their own password (`POST /api/v1/me/password`, any role): the new
     * one meets the policy, the current one is proven under the login backoff, and every other session
     * of theirs ends in the same transaction; the one the change came with stays signed in.
     */
    async changeOwnPassword(
      ctx: RequestContext,
      input: PasswordChangeBody,
      from: AttemptSource,
    ): Promise<PasswordChanged> {
      const { principal } = ctx;
      if (!isUserPrincipal(principal)) {
        throw new CmsError(
          'FORBIDDEN',
          'Only a person signed in with a session changes their own password here; an API key or preview token has none. Sign in to the Studio, or have an administrator set it with PATCH /api/v1/users/{id}.',
        );
      }
      assertPasswordPolicy(input.password);
      const self = await findUserById(deps.db, principal.id);
      if (!self) throw notFound('User');
      await assertIsCurrentPassword(self, input.currentPassword, from);
      if (input.password === input.currentPassword) {
        throw invalidInput({ 'body.password': 'is your current password: choose a new one' });
      }
      const passwordHash = await hashPassword(input.password);
      return deps.db.transaction(async (tx) => {
        const updated = await updateUser(tx, self.id, { passwordHash, now: deps.clock() });
        if (!updated) throw notFound('User');
        const otherSessionsEnded = await deps.sessions.endOthersOfUser(tx, self.id, principal.sessionId);
        return { changed: true as const, otherSessionsEnded };
      });
    },

    /** Changes role, disabled state or password; disabling or a new password ends every session of the user. */
    async update(ctx: RequestContext, id: string, input: UpdateUserInput): Promise<UserView> {
      if (input.role !== undefined) assertCanGrantRole(ctx.principal, input.role, null);
      if (input.password !== undefined) assertPasswordPolicy(input.password);
      await assertCurrentPassword(ctx, id, input);
      const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
      return deps.db.transaction(async (tx) => {
        const user = await loadManageable(ctx, tx, id);
        if (input.role !== undefined && input.role !== 'admin') await assertKeepsAnAdmin(tx, user, 'body.role');
        if (input.disabled === true) await assertKeepsAnAdmin(tx, user, 'body.disabled');
        const now = deps.clock();
        const disabledAt = input.disabled === undefined ? undefined : input.disabled ? (user.disabledAt ?? now) : null;
        const updated = await updateUser(tx, id, {
          ...(input.role !== undefined ? { role: input.role } : {}),
          ...(disabledAt !== undefined ? { disabledAt } : {}),
          ...(passwordHash !== undefined ? { passwordHash } : {}),
          now,
        });
        if (!updated) throw notFound('User');
        if (input.disabled === true || passwordHash !== undefined) await deps.sessions.endAllOfUser(tx, id);
        return toUserView(updated);
      });
    },

    /** Deletes a user for good: grants and sessions go with it (docs/access-control.md "Users"). */
    /**
     * Removes a user's second factor (lost authenticator and recovery codes): they sign in with the
     * password alone and may enrol again. Needs `users:manage` over that user (no escalation); never
     * one's own, which `POST /api/v1/me/mfa/disable` turns off with a password or code (a session alone
     * must not be enough).
     */
    async resetMfa(ctx: RequestContext, id: string): Promise<UserView> {
      if (ctx.principal.type === 'user' && ctx.principal.id === id) {
        throw invalidInput({ 'params.id': 'is you: turn your own second factor off with POST /api/v1/me/mfa/disable' });
      }
      return deps.db.transaction(async (tx) => {
        const user = await loadManageable(ctx, tx, id);
        await deleteUserMfa(tx, id);
        return toUserView(user);
      });
    },

    async remove(ctx: RequestContext, id: string): Promise<UserView> {
      return deps.db.transaction(async (tx) => {
        const user = await loadManageable(ctx, tx, id);
        await assertKeepsAnAdmin(tx, user, 'params.id');
        const deleted = await deleteUser(tx, id);
        if (!deleted) throw notFound('User');
        return toUserView(deleted);
      });
    },
  };
}

/** The users service's type, for action factories. */
export type UsersService = ReturnType<typeof createUsersService>;
