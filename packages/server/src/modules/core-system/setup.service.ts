import { CmsError, invalidInput, isCmsError, type SetupBody } from '@cms/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import { ConfigError, type ServerConfig } from '../../config.js';
import type { RequestContext } from '../../http/request-context.js';
import type { Db, Queryable } from '../../storage/db.js';
import { deleteSetupTokens, hasSetupToken, insertSetupToken } from '../../storage/repositories/setup.repository.js';
import { countUsers } from '../../storage/repositories/users.repository.js';
import { assertPasswordPolicy, hashPassword } from './bounded-password-hashing.js';
import { generateToken, hashToken, isWellFormedToken } from './secret-tokens.js';
import type { IssuedSession, SessionsService, SignInOrigin } from './sessions.service.js';
import { createUserRecord, normalizeEmail } from './user-records.js';

/** Enough to catch a misplaced setting; the address is the admin's to get right. */
const EMAIL_SHAPE = /^[^@\s]+@[^@\s]+$/;

// Serialises first-admin creation across processes (any constant shared by every process).
const FIRST_ADMIN_LOCK_KEY = 7_312_003;

/** The first-admin setup form's input (`POST /api/v1/setup`): core's body and where the sign-in comes from. */
export type SetupInput = SetupBody & SignInOrigin;

/**
 * The first administrator (decisions.md §1): from CMS_ADMIN_EMAIL/CMS_ADMIN_PASSWORD at start, or
 * through the one-time setup address the server logs when neither a user nor those settings exist.
 */
export function createSetupService(deps: {
  db: Db;
  config: Pick<ServerConfig, 'adminEmail' | 'adminPassword' | 'publicUrl'>;
  sessions: SessionsService;
  clock: Clock;
  log: FastifyBaseLogger;
}) {
  /** The configured admin's email and password, checked like the setup form would (ConfigError if bad). */
  const configuredAdmin = (): { email: string; password: string } | null => {
    const { adminEmail, adminPassword } = deps.config;
    if ((adminEmail === null) !== (adminPassword === null)) {
      throw new ConfigError('Set both CMS_ADMIN_EMAIL and CMS_ADMIN_PASSWORD, or neither.');
    }
    if (adminEmail === null || adminPassword === null) return null;
    if (!EMAIL_SHAPE.test(adminEmail.trim())) {
      throw new ConfigError(`CMS_ADMIN_EMAIL must be an email address, got "${adminEmail}".`);
    }
    try {
      assertPasswordPolicy(adminPassword, 'CMS_ADMIN_PASSWORD');
    } catch (error: unknown) {
      if (!isCmsError(error)) throw error;
      throw new ConfigError(`CMS_ADMIN_PASSWORD ${Object.values(error.details.fields ?? {})[0]}.`);
    }
    return { email: normalizeEmail(adminEmail), password: adminPassword };
  };

  /** Creates the admin unless a user exists by then; true when it did. */
  const createFirstAdmin = async (admin: { email: string; password: string }): Promise<boolean> => {
    const passwordHash = await hashPassword(admin.password);
    return deps.db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [FIRST_ADMIN_LOCK_KEY]);
      if ((await countUsers(tx)) > 0) return false;
      const row = { email: admin.email, role: 'admin' as const, passwordHash, now: deps.clock() };
      await createUserRecord(tx, row, 'CMS_ADMIN_EMAIL');
      await deleteSetupTokens(tx);
      return true;
    });
  };

  /** Stores a new setup token and logs the address that carries it; returns the address. */
  const announceSetupAddress = async (): Promise<string> => {
    const token = generateToken();
    await insertSetupToken(deps.db, hashToken(token));
    const setupUrl = `${deps.config.publicUrl}/studio/setup?token=${token}`;
    deps.log.warn({ setupUrl }, `no user exists yet: create the first admin at ${setupUrl}`);
    return setupUrl;
  };

  return {
    /**
     * Runs at start: creates the configured admin, or logs a setup address, when no user exists.
     * Returns the setup address when it made one (the start banner shows it).
     */
    async bootstrap(): Promise<string | null> {
      const admin = configuredAdmin();
      if ((await countUsers(deps.db)) > 0) return null;
      if (!admin) return announceSetupAddress();
      if (await createFirstAdmin(admin)) {
        deps.log.info({ email: admin.email }, 'created the first admin from CMS_ADMIN_EMAIL');
      }
      return null;
    },

    /** Creates the first admin with a logged setup token and signs them in; usable once. */
    async setup(_ctx: RequestContext, input: SetupInput): Promise<IssuedSession> {
      assertPasswordPolicy(input.password);
      const email = normalizeEmail(input.email);
      // Checked before the password is hashed (a guess costs a lookup, not argon2), and again below.
      await assertSetupOpen(deps.db, input.token);
      const passwordHash = await hashPassword(input.password);
      return deps.db.transaction(async (tx) => {
        await tx.query('select pg_advisory_xact_lock($1)', [FIRST_ADMIN_LOCK_KEY]);
        await assertSetupOpen(tx, input.token);
        const user = await createUserRecord(tx, { email, role: 'admin', passwordHash, now: deps.clock() });
        await deleteSetupTokens(tx);
        return deps.sessions.issue(tx, user, input);
      });
    },
  };
}

/** Throws unless no user exists yet and the token is the current setup token. */
async function assertSetupOpen(db: Queryable, token: string): Promise<void> {
  if ((await countUsers(db)) > 0) {
    throw new CmsError('FORBIDDEN', 'Setup is already complete: sign in instead.');
  }
  if (!isWellFormedToken(token) || !(await hasSetupToken(db, hashToken(token)))) {
    throw invalidInput({ 'body.token': 'is not a valid setup token: use the address from the server log' });
  }
}

/** The setup service's type, for action factories. */
export type SetupService = ReturnType<typeof createSetupService>;
