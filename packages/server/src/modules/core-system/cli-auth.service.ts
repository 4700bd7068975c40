import { createHmac, randomUUID } from 'node:crypto';
import {
  type ActionInput,
  type ActionResult,
  type authCliAuthorizeRoute,
  type authCliChallengeRoute,
  type authCliDenyRoute,
  type authCliExchangeRoute,
  type authCliPollRoute,
  type authCliStartRoute,
  CmsError,
  invalidInput,
  notFound,
  type Scope,
} from '@cms/core';
import { noteAuditActor, noteAuditOutcome } from '../../audit/audit-scope.js';
import type { Clock } from '../../clock.js';
import type { RequestContext } from '../../http/request-context.js';
import type { Db, Transaction } from '../../storage/db.js';
import { insertApiKey } from '../../storage/repositories/api-keys.repository.js';
import {
  authorizeCliChallengeIfPending,
  type CliChallengeRow,
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
import {
  assertLoopbackCallback,
  denied,
  expired,
  killed,
  makeCode,
  makeUserCode,
  normalizeCode,
} from './cli-auth-codes.js';
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

type Start = typeof authCliStartRoute;
type Describe = typeof authCliChallengeRoute;
type Authorize = typeof authCliAuthorizeRoute;
type Deny = typeof authCliDenyRoute;
type Poll = typeof authCliPollRoute;
type Exchange = typeof authCliExchangeRoute;

/** What the device flow needs: storage, the key secret, the time, the Studio's URL and the targets. */
export interface CliAuthDeps {
  db: Db;
  secret: string;
  clock: Clock;
  publicUrl: string;
  targets: TargetResolver;
}

/** RATE_LIMITED for a start over CLI_STARTS_PER_ADDRESS, with when the oldest counted start leaves the window. */
function tooManyStarts(oldestCounted: Date | null, now: Date): CmsError {
  const freeAt = (oldestCounted?.getTime() ?? now.getTime()) + CLI_START_WINDOW_MS;
  const seconds = Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000));
  return new CmsError(
    'RATE_LIMITED',
    `Too many command-line sign-ins were started from this address in the last ${CLI_START_WINDOW_MS / 60_000} minutes (${CLI_STARTS_PER_ADDRESS}): finish one already open, or retry in ${seconds} s.`,
    { retryAfterSeconds: seconds },
    { 'retry-after': String(seconds) },
  );
}

/** The user behind a session request; API keys and anonymous callers cannot approve a sign-in. */
function sessionUser(ctx: RequestContext) {
  const { principal } = ctx;
  if (!isUserPrincipal(principal)) {
    throw new CmsError('FORBIDDEN', 'Approve a command-line sign-in from the Studio while signed in.');
  }
  return principal;
}

/**
 * The command-line device flow (interface.md "Command-line device challenge", decisions.md §5):
 * start (anyone) -> authorize (a signed-in user in the browser) -> exchange (the CLI, for a
 * `cms_key_cli_` key). Everything lives in the database, hashed, so any process can take any step.
 */
export class CliAuthService {
  constructor(private readonly deps: CliAuthDeps) {}

  /** The keyed hash a one-time code is stored and compared as. */
  private codeHash(challengeId: string, code: string): Buffer {
    return createHmac('sha256', this.deps.secret)
      .update(`cli-code\u0000${challengeId}\u0000${normalizeCode(code)}`)
      .digest();
  }

  /** The challenge of an id; NOT_FOUND for an unknown or malformed one. */
  private async load(challengeId: string): Promise<CliChallengeRow> {
    const row = isWellFormedToken(challengeId) ? await findCliChallenge(this.deps.db, hashToken(challengeId)) : null;
    if (!row) throw notFound('Sign-in challenge');
    return row;
  }

  /**
   * Opens a challenge for the command line (no credentials), at most CLI_STARTS_PER_ADDRESS per
   * client address in CLI_START_WINDOW_MS: past that, RATE_LIMITED with Retry-After.
   */
  async start({ body: input }: ActionInput<Start>, clientAddress: string): Promise<ActionResult<Start>> {
    if (input.callbackUrl !== undefined) assertLoopbackCallback(input.callbackUrl);
    const now = this.deps.clock();
    const challengeId = generateToken();
    const expiresAt = new Date(now.getTime() + CLI_CHALLENGE_TTL_MS);
    const userCode = makeUserCode();
    await deleteCliChallengesExpiredBefore(this.deps.db, new Date(now.getTime() - CLI_CHALLENGE_KEEP_MS));
    const challenge = {
      idHash: hashToken(challengeId),
      project: input.project,
      environment: input.environment,
      callbackUrl: input.callbackUrl ?? null,
      userCode,
      createdAt: now,
      expiresAt,
      clientKey: clientAddressHash(clientAddress),
    };
    const bound = { since: new Date(now.getTime() - CLI_START_WINDOW_MS), limit: CLI_STARTS_PER_ADDRESS };
    // The challenge and its audit entry commit together; a start over the limit rolls back (docs/audit.md).
    await this.deps.db.transaction(async (tx) => {
      const { inserted, oldestCounted } = await insertCliChallengeWithinLimit(tx, challenge, bound);
      if (!inserted) throw tooManyStarts(oldestCounted, now);
    });
    const authorizeUrl = `${this.deps.publicUrl}/studio/cli/authorize?challenge=${encodeURIComponent(challengeId)}`;
    return { challengeId, authorizeUrl, userCode, expiresAt };
  }

  /** What the user is about to approve (session only). */
  async describe(ctx: RequestContext, { params }: ActionInput<Describe>): Promise<ActionResult<Describe>> {
    const challengeId = params.id;
    sessionUser(ctx);
    const row = await this.load(challengeId);
    if (row.expiresAt.getTime() <= this.deps.clock().getTime()) throw expired();
    return {
      challengeId,
      project: row.project,
      environment: row.environment,
      status: row.state,
      callbackUrl: row.callbackUrl,
      userCode: row.userCode,
      expiresAt: row.expiresAt,
    };
  }

  /**
   * Refuses a pending challenge (session and CSRF, like authorize): the waiting command sees
   * `denied` on its next poll and an exchange is `FORBIDDEN` with `details.reason` `access_denied`.
   * Denying twice is fine; a challenge already approved cannot be denied any more.
   */
  async deny(ctx: RequestContext, { body }: ActionInput<Deny>): Promise<ActionResult<Deny>> {
    sessionUser(ctx);
    const row = await this.load(body.challengeId);
    const now = this.deps.clock();
    if (row.expiresAt.getTime() <= now.getTime()) throw expired();
    if (row.state === 'denied') return { success: true };
    const alreadyApproved = () =>
      invalidInput({ challengeId: 'already approved' }, 'This sign-in was already approved.');
    if (row.state !== 'pending') throw alreadyApproved();
    // The denial and its audit entry commit together (docs/audit.md).
    await this.deps.db.transaction(async (tx) => {
      if (!(await denyCliChallengeIfPending(tx, { idHash: row.idHash, now }))) throw alreadyApproved();
    });
    return { success: true };
  }

  /**
   * Where a challenge stands, for the command line waiting on it (no credentials: knowing the
   * challenge id is enough, and the answer grants nothing). Expired or void: `FORBIDDEN`.
   */
  async poll({ body }: ActionInput<Poll>): Promise<ActionResult<Poll>> {
    const row = await this.load(body.challengeId);
    if (row.state === 'denied') return { status: 'denied' };
    if (row.state !== 'exchanged' && row.expiresAt.getTime() <= this.deps.clock().getTime()) throw expired();
    if (row.failedAttempts >= CLI_MAX_WRONG_CODES) throw killed();
    return { status: row.state };
  }

  /** Approves a pending challenge for the signed-in user; the answer holds the one-time code. */
  async authorize(ctx: RequestContext, { body }: ActionInput<Authorize>): Promise<ActionResult<Authorize>> {
    const { challengeId } = body;
    const user = sessionUser(ctx);
    const row = await this.load(challengeId);
    const now = this.deps.clock();
    if (row.expiresAt.getTime() <= now.getTime()) throw expired();
    if (row.failedAttempts >= CLI_MAX_WRONG_CODES) throw killed();
    // The same checks and answers as a request routed to that project/environment (decisions.md §2).
    if (!user.canAccess(row.project, null)) throw new CmsError('FORBIDDEN', 'You have no access to this project.');
    const project = await this.deps.targets.findProject(row.project);
    if (!project) throw new CmsError('PROJECT_NOT_FOUND', `No project "${row.project}".`);
    if (!user.canAccess(row.project, row.environment)) {
      throw new CmsError('FORBIDDEN', 'You have no access to this environment.');
    }
    if (!(await this.deps.targets.findEnvironment(project, row.environment))) {
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
    // The approval and its audit entry commit together; a lost race rolls back (docs/audit.md).
    await this.deps.db.transaction(async (tx) => {
      const codeHash = this.codeHash(challengeId, code);
      if (!(await authorizeCliChallengeIfPending(tx, { idHash: row.idHash, codeHash, userId: user.id, now }))) {
        throw invalidInput({ challengeId: 'already approved' }, 'This sign-in was already approved.');
      }
    });
    return { success: true, code };
  }

  /**
   * Trades an authorized challenge and its code for a CLI key. Every wrong code counts, the fifth
   * voids the challenge; the key holds the approving user's scopes there, as they are now.
   */
  async exchange({ body: input }: ActionInput<Exchange>): Promise<ActionResult<Exchange>> {
    if (!isWellFormedToken(input.challengeId)) throw notFound('Sign-in challenge');
    const now = this.deps.clock();
    // Failures that count must commit, so the transaction returns them rather than throwing.
    const outcome = await this.deps.db.transaction(async (tx) => {
      const result = await this.exchangeIn(tx, input, now);
      // A refusal that counts commits too: its audit entry says so.
      if ('error' in result) noteAuditOutcome('failure');
      return result;
    });
    if ('error' in outcome) throw outcome.error;
    return outcome;
  }

  /** The exchange inside its transaction: a refusal that counts is returned, so it commits. */
  private async exchangeIn(
    tx: Transaction,
    input: ActionInput<Exchange>['body'],
    now: Date,
  ): Promise<{ error: CmsError } | { apiKey: string; expiresAt: Date }> {
    const idHash = hashToken(input.challengeId);
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
      hashesEqual(row.codeHash, this.codeHash(input.challengeId, input.code));
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
    noteAuditActor({ type: 'user', id: user.id, label: user.email });
    return { apiKey, expiresAt };
  }
}
