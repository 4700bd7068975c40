import { randomUUID } from 'node:crypto';
import { notFound, type Serializable, type Session } from '@cms/core';
import type { Clock } from '../../clock.js';
import type { RequestContext } from '../../http/request-context.js';
import { type Queryable, withTransaction } from '../../storage/db.js';
import {
  deleteOtherSessionsOfUser,
  deleteSessionOfUser,
  deleteSessionsOfUser,
  insertSession,
  listSessionsOfUser,
  type SessionRow,
} from '../../storage/repositories/sessions.repository.js';
import { csrfTokenFor, generateToken, hashToken } from './secret-tokens.js';
import { isUserPrincipal } from './user-principal.js';

/** A session ends after 12 hours without a request, and 7 days after sign-in at the latest (decisions.md §5). */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;

const USER_AGENT_MAX_LENGTH = 512;

/** A new session: its view, and the secrets that go into the cookies (never stored). */
export interface IssuedSession {
  session: Serializable<Session>;
  token: string;
  csrfToken: string;
}

/** Where a sign-in came from, shown in session listings. */
export interface SignInOrigin {
  userAgent: string | null;
  ipAddress: string | null;
}

/** When a session ends if unused from now on. */
export function sessionExpiresAt(row: Pick<SessionRow, 'lastSeenAt' | 'absoluteExpiresAt'>): Date {
  return new Date(Math.min(row.lastSeenAt.getTime() + SESSION_IDLE_MS, row.absoluteExpiresAt.getTime()));
}

function toView(row: SessionRow, email: string, currentId: string | null): Serializable<Session> {
  return {
    id: row.id,
    userId: row.userId,
    email,
    issuedAt: row.createdAt,
    expiresAt: sessionExpiresAt(row),
    lastSeenAt: row.lastSeenAt,
    userAgent: row.userAgent,
    ipAddress: row.ipAddress,
    current: row.id === currentId,
  };
}

/** Server-side sessions: issued at sign-in, listed and ended by their user. */
export function createSessionsService(deps: { db: Queryable; secret: string; clock: Clock }) {
  return {
    /** Starts a session for a user (in the caller's transaction when given one). */
    async issue(tx: Queryable, user: { id: string; email: string }, origin: SignInOrigin): Promise<IssuedSession> {
      const now = deps.clock();
      const token = generateToken();
      const row: SessionRow = {
        id: randomUUID(),
        userId: user.id,
        createdAt: now,
        lastSeenAt: now,
        absoluteExpiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
        userAgent: origin.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
        ipAddress: origin.ipAddress,
      };
      await insertSession(tx, { ...row, tokenHash: hashToken(token) });
      return { session: toView(row, user.email, row.id), token, csrfToken: csrfTokenFor(deps.secret, token) };
    },

    /** The caller's own live sessions; API keys have none. */
    async list(ctx: RequestContext): Promise<Serializable<Session>[]> {
      const { principal } = ctx;
      if (!isUserPrincipal(principal)) return [];
      const now = deps.clock().getTime();
      const rows = await listSessionsOfUser(deps.db, principal.id);
      return rows
        .filter((row) => sessionExpiresAt(row).getTime() > now)
        .map((row) => toView(row, principal.email, principal.sessionId));
    },

    /** Ends one of the caller's own sessions; anyone else's is NOT_FOUND. */
    async end(ctx: RequestContext, id: string): Promise<{ deleted: true; id: string; current: boolean }> {
      const { principal } = ctx;
      if (!isUserPrincipal(principal)) throw notFound('Session');
      // The end and its audit entry commit together; nothing ended rolls back (docs/audit.md).
      await withTransaction(deps.db, async (tx) => {
        if (!(await deleteSessionOfUser(tx, principal.id, id))) throw notFound('Session');
      });
      return { deleted: true, id, current: id === principal.sessionId };
    },

    /** Ends the session the request came with (logout); false for callers without one. */
    async endCurrent(ctx: RequestContext): Promise<boolean> {
      const { principal } = ctx;
      if (!isUserPrincipal(principal)) return false;
      return withTransaction(deps.db, (tx) => deleteSessionOfUser(tx, principal.id, principal.sessionId));
    },

    /** Ends every session of a user at once (disabled, password changed). */
    async endAllOfUser(tx: Queryable, userId: string): Promise<void> {
      await deleteSessionsOfUser(tx, userId);
    },

    /** Ends every session of a user but the one given (their own password change); answers how many. */
    endOthersOfUser(tx: Queryable, userId: string, keepSessionId: string): Promise<number> {
      return deleteOtherSessionsOfUser(tx, userId, keepSessionId);
    },
  };
}

/** The sessions service's type, for other services and action factories. */
export type SessionsService = ReturnType<typeof createSessionsService>;
