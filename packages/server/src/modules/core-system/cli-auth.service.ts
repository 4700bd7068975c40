import { createHmac, randomInt, randomUUID } from 'node:crypto';
import { CmsError, invalidInput, notFound, type Scope } from '@cms/core';
import type { Clock } from '../../clock.js';
import type { RequestContext } from '../../http/request-context.js';
import type { Db } from '../../storage/db.js';
import { insertApiKey } from '../../storage/repositories/api-keys.repository.js';
import {
  authorizeCliChallengeIfPending,
  type CliChallengeRow,
  type CliChallengeState,
  countWrongCliCode,
  deleteCliChallengesExpiredBefore,
  denyCliChallengeIfPending,
  findCliChallenge,
  findCliChallengeForUpdate,
  insertCliChallengeWithinLimit,
  markCliChallengeExchanged,
} from '../../storage/repositories/cli-auth.repository.js';
import { listGrantsOfUser } from '../../storage/repositories/grants.repository.js';
import { findUserById } from '../../storage/repositories/users.repository.js';
import type { TargetResolver } from '../../tenancy/target-resolver.js';
import { generateApiKey, hashesEqual } from './api-key-secret.js';
import { userScopesIn } from './cli-key-principal.js';
import { clientAddressHash } from './login-throttle.js';
import { generateToken, hashToken, isWellFormedToken } from './secret-tokens.js';
import { isUserPrincipal } from './user-principal.js';

/** A challenge lives 10 minutes from its start (interface.md "Command-line device challenge"). */
export const CLI_CHALLENGE_TTL_MS = 10 * 60_000;
/** The key a challenge is exchanged for lives 90 days (decisions.md §5). */
export const CLI_KEY_TTL_MS = 90 * 24 * 60 * 60_000;
/** The fifth wrong code kills the challenge (decisions.md §5). */
export const CLI_MAX_WRONG_CODES = 5;
/**
 * Each client address (an IPv4 address, an IPv6 /64) may start this many challenges per
 * CLI_START_WINDOW_MS: starting needs no credentials, and a person signs in a few times a day.
 */
export const CLI_STARTS_PER_ADDRESS = 20;
export const CLI_START_WINDOW_MS = 10 * 60_000;
/** Challenges are deleted a day after they expire (their outcome no longer matters to anyone). */
const CLI_CHALLENGE_KEEP_MS = 24 * 60 * 60_000;

/** Codes are typed by people: no 0/O or 1/I/L. 8 characters of 32 is 40 bits, with 5 guesses allowed. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;

/** Input of `POST /api/v1/auth/cli/start`. */
export interface CliStartInput {
  project: string;
  environment: string;
  callbackUrl?: string;
}

/** What the authorize page shows before the user approves. */
export interface CliChallengeView {
  challengeId: string;
  project: string;
  environment: string;
  status: CliChallengeState;
  callbackUrl: string | null;
  userCode: string;
  expiresAt: Date;
}

function makeCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * The user code the command line prints and the authorize page shows before approving: digits only
 * (`482-913`), so it never looks like the one-time code pasted back (`K7QM-3XTP`). Not a secret.
 */
function makeUserCode(): string {
  const digits = String(randomInt(1_000_000)).padStart(6, '0');
  return `${digits.slice(0, 3)}-${digits.slice(3)}`;
}

/** Codes compare without case, dashes or spaces, so a pasted or retyped code matches. */
function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

/**
 * A loopback callback (decisions.md §5): `http://127.0.0.1:<port>/...` or `http://localhost:<port>/...`,
 * nothing else, so a started flow can never send the code to another host.
 */
function assertLoopbackCallback(callbackUrl: string): void {
  let url: URL;
  try {
    url = new URL(callbackUrl);
  } catch {
    throw invalidInput({ 'body.callbackUrl': 'must be an absolute URL' });
  }
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost';
  if (url.protocol !== 'http:' || !loopback || url.port === '' || url.username || url.password || url.hash) {
    throw invalidInput({
      'body.callbackUrl': 'must be http://127.0.0.1:<port>/... or http://localhost:<port>/... (a loopback address)',
    });
  }
}

const expired = () =>
  new CmsError('FORBIDDEN', 'This sign-in challenge has expired: run the sign-in command again to restart.');
/** `details.reason` tells a refusal apart from the other `FORBIDDEN` answers (RFC 8628 `access_denied`). */
const denied = () =>
  new CmsError(
    'FORBIDDEN',
    'This sign-in was denied in the Studio: nothing was granted. Run the sign-in command again if you meant to sign in.',
    { reason: 'access_denied' },
  );
const killed = () =>
  new CmsError('FORBIDDEN', 'Too many wrong codes: this sign-in challenge is void; run the sign-in command again.');

/**
 * The command-line device flow (interface.md "Command-line device challenge", decisions.md §5):
 * start (anyone) -> authorize (a signed-in user in the browser) -> exchange (the CLI, for a
 * `cms_key_cli_` key). Everything lives in the database, hashed, so any process can take any step.
 */
export function createCliAuthService(deps: {
  db: Db;
  secret: string;
  clock: Clock;
  publicUrl: string;
  targets: TargetResolver;
}) {
  const codeHash = (challengeId: string, code: string) =>
    createHmac('sha256', deps.secret)
      .update(`cli-code\u0000${challengeId}\u0000${normalizeCode(code)}`)
      .digest();

  const load = async (challengeId: string): Promise<CliChallengeRow> => {
    const row = isWellFormedToken(challengeId) ? await findCliChallenge(deps.db, hashToken(challengeId)) : null;
    if (!row) throw notFound('Sign-in challenge');
    return row;
  };

  /** The user behind a session request; API keys and anonymous callers cannot approve a sign-in. */
  const sessionUser = (ctx: RequestContext) => {
    const { principal } = ctx;
    if (!isUserPrincipal(principal)) {
      throw new CmsError('FORBIDDEN', 'Approve a command-line sign-in from the Studio while signed in.');
    }
    return principal;
  };

  return {
    /**
     * Opens a challenge for the command line (no credentials), at most CLI_STARTS_PER_ADDRESS per
     * client address in CLI_START_WINDOW_MS: past that, RATE_LIMITED with Retry-After.
     */
    async start(
      input: CliStartInput,
      clientAddress: string,
    ): Promise<{ challengeId: string; authorizeUrl: string; userCode: string; expiresAt: Date }> {
      if (input.callbackUrl !== undefined) assertLoopbackCallback(input.callbackUrl);
      const now = deps.clock();
      const challengeId = generateToken();
      const expiresAt = new Date(now.getTime() + CLI_CHALLENGE_TTL_MS);
      const userCode = makeUserCode();
      await deleteCliChallengesExpiredBefore(deps.db, new Date(now.getTime() - CLI_CHALLENGE_KEEP_MS));
      const { inserted, oldestCounted } = await insertCliChallengeWithinLimit(
        deps.db,
        {
          idHash: hashToken(challengeId),
          project: input.project,
          environment: input.environment,
          callbackUrl: input.callbackUrl ?? null,
          userCode,
          createdAt: now,
          expiresAt,
          clientKey: clientAddressHash(clientAddress),
        },
        { since: new Date(now.getTime() - CLI_START_WINDOW_MS), limit: CLI_STARTS_PER_ADDRESS },
      );
      if (!inserted) {
        const freeAt = (oldestCounted?.getTime() ?? now.getTime()) + CLI_START_WINDOW_MS;
        const seconds = Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000));
        throw new CmsError(
          'RATE_LIMITED',
          `Too many command-line sign-ins were started from this address in the last ${CLI_START_WINDOW_MS / 60_000} minutes (${CLI_STARTS_PER_ADDRESS}): finish one already open, or retry in ${seconds} s.`,
          { retryAfterSeconds: seconds },
          { 'retry-after': String(seconds) },
        );
      }
      const authorizeUrl = `${deps.publicUrl}/studio/cli/authorize?challenge=${encodeURIComponent(challengeId)}`;
      return { challengeId, authorizeUrl, userCode, expiresAt };
    },

    /** What the user is about to approve (session only). */
    async describe(ctx: RequestContext, challengeId: string): Promise<CliChallengeView> {
      sessionUser(ctx);
      const row = await load(challengeId);
      if (row.expiresAt.getTime() <= deps.clock().getTime()) throw expired();
      return {
        challengeId,
        project: row.project,
        environment: row.environment,
        status: row.state,
        callbackUrl: row.callbackUrl,
        userCode: row.userCode,
        expiresAt: row.expiresAt,
      };
    },

    /**
     * Refuses a pending challenge (session and CSRF, like authorize): the waiting command sees
     * `denied` on its next poll and an exchange is `FORBIDDEN` with `details.reason` `access_denied`.
     * Denying twice is fine; a challenge already approved cannot be denied any more.
     */
    async deny(ctx: RequestContext, challengeId: string): Promise<{ success: true }> {
      sessionUser(ctx);
      const row = await load(challengeId);
      const now = deps.clock();
      if (row.expiresAt.getTime() <= now.getTime()) throw expired();
      if (row.state === 'denied') return { success: true };
      if (row.state !== 'pending' || !(await denyCliChallengeIfPending(deps.db, { idHash: row.idHash, now }))) {
        throw invalidInput({ challengeId: 'already approved' }, 'This sign-in was already approved.');
      }
      return { success: true };
    },

    /**
     * Where a challenge stands, for the command line waiting on it (no credentials: knowing the
     * challenge id is enough, and the answer grants nothing). Expired or void: `FORBIDDEN`.
     */
    async poll(challengeId: string): Promise<{ status: CliChallengeState }> {
      const row = await load(challengeId);
      if (row.state === 'denied') return { status: 'denied' };
      if (row.state !== 'exchanged' && row.expiresAt.getTime() <= deps.clock().getTime()) throw expired();
      if (row.failedAttempts >= CLI_MAX_WRONG_CODES) throw killed();
      return { status: row.state };
    },

    /** Approves a pending challenge for the signed-in user; the answer holds the one-time code. */
    async authorize(ctx: RequestContext, challengeId: string): Promise<{ success: true; code: string }> {
      const user = sessionUser(ctx);
      const row = await load(challengeId);
      const now = deps.clock();
      if (row.expiresAt.getTime() <= now.getTime()) throw expired();
      if (row.failedAttempts >= CLI_MAX_WRONG_CODES) throw killed();
      // The same checks and answers as a request routed to that project/environment (decisions.md §2).
      if (!user.canAccess(row.project, null)) throw new CmsError('FORBIDDEN', 'You have no access to this project.');
      const project = await deps.targets.findProject(row.project);
      if (!project) throw new CmsError('PROJECT_NOT_FOUND', `No project "${row.project}".`);
      if (!user.canAccess(row.project, row.environment)) {
        throw new CmsError('FORBIDDEN', 'You have no access to this environment.');
      }
      if (!(await deps.targets.findEnvironment(project, row.environment))) {
        throw new CmsError('ENVIRONMENT_NOT_FOUND', `No environment "${row.environment}" in project "${row.project}".`);
      }
      if (!user.scopesIn({ projectSlug: row.project, environmentName: row.environment }).has('content:read')) {
        throw new CmsError('FORBIDDEN', 'You cannot read this environment, so you cannot sign the CLI in to it.');
      }
      if (row.state === 'denied') throw denied();
      if (row.state !== 'pending') {
        throw invalidInput({ challengeId: 'already approved' }, 'This sign-in was already approved.');
      }
      const code = makeCode();
      const authorized = await authorizeCliChallengeIfPending(deps.db, {
        idHash: row.idHash,
        codeHash: codeHash(challengeId, code),
        userId: user.id,
        now,
      });
      if (!authorized) throw invalidInput({ challengeId: 'already approved' }, 'This sign-in was already approved.');
      return { success: true, code };
    },

    /**
     * Trades an authorized challenge and its code for a CLI key. Every wrong code counts, the fifth
     * voids the challenge; the key holds the approving user's scopes there, as they are now.
     */
    async exchange(input: { challengeId: string; code: string }): Promise<{ apiKey: string; expiresAt: Date }> {
      if (!isWellFormedToken(input.challengeId)) throw notFound('Sign-in challenge');
      const idHash = hashToken(input.challengeId);
      const now = deps.clock();
      // Failures that count must commit, so the transaction returns them rather than throwing.
      const outcome = await deps.db.transaction(async (tx) => {
        const row = await findCliChallengeForUpdate(tx, idHash);
        if (!row) return { error: notFound('Sign-in challenge') };
        if (row.state === 'denied') return { error: denied() };
        if (row.expiresAt.getTime() <= now.getTime()) return { error: expired() };
        if (row.failedAttempts >= CLI_MAX_WRONG_CODES) return { error: killed() };
        if (row.state === 'exchanged') {
          return { error: invalidInput({ 'body.code': 'already used' }, 'This code was already used.') };
        }
        const matches =
          row.state === 'authorized' &&
          row.codeHash !== null &&
          hashesEqual(row.codeHash, codeHash(input.challengeId, input.code));
        if (!matches || !row.authorizedBy) {
          const attempts = await countWrongCliCode(tx, idHash);
          const left = CLI_MAX_WRONG_CODES - attempts;
          const message =
            left > 0
              ? `Wrong code: ${left} ${left === 1 ? 'try' : 'tries'} left.`
              : 'Wrong code: this sign-in challenge is void now; run the sign-in command again.';
          return { error: invalidInput({ 'body.code': 'wrong code' }, message) };
        }
        const user = await findUserById(tx, row.authorizedBy);
        const grants = user ? await listGrantsOfUser(tx, user.id) : [];
        const scopes: Scope[] =
          user && !user.disabledAt ? [...userScopesIn({ role: user.role, grants }, row.project, row.environment)] : [];
        if (!user || scopes.length === 0) {
          return {
            error: new CmsError('FORBIDDEN', 'The user who approved this sign-in has no access there any more.'),
          };
        }
        await markCliChallengeExchanged(tx, idHash, now);
        const { apiKey, prefix, secretHash } = generateApiKey('cli');
        const expiresAt = new Date(now.getTime() + CLI_KEY_TTL_MS);
        await insertApiKey(tx, {
          id: randomUUID(),
          kind: 'cli',
          label: `cms CLI: ${user.email} (${row.project}/${row.environment})`,
          prefix,
          secretHash,
          scopes,
          contextAllowlist: [{ project: row.project, environment: row.environment }],
          createdBy: user.id,
          expiresAt,
        });
        return { apiKey, expiresAt };
      });
      if ('error' in outcome) throw outcome.error;
      return outcome;
    },
  };
}

/** The CLI sign-in service's type, for action factories. */
export type CliAuthService = ReturnType<typeof createCliAuthService>;
