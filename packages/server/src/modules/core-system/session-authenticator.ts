import { CmsError } from '@cms/core';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.js';
import { type AuthStrategy, MFA_ENROLMENT_ACTIONS } from '../../http/authenticate.js';
import type { Queryable } from '../../storage/db.js';
import { deleteStaleThrottleRows } from '../../storage/repositories/login-throttle.repository.js';
import { deleteExpiredMfaChallenges } from '../../storage/repositories/mfa.repository.js';
import {
  deleteExpiredSessions,
  findSessionPrincipal,
  touchSession,
} from '../../storage/repositories/sessions.repository.js';
import { LOGIN_THROTTLE_FORGET_MS } from './login-throttle.js';
import { isMfaRequired, type RequireMfa } from './mfa.service.js';
import { csrfTokenFor, hashToken, isWellFormedToken } from './secret-tokens.js';
import { sessionTokenOf } from './session-cookies.js';
import { SESSION_IDLE_MS, sessionExpiresAt } from './sessions.service.js';
import { userPrincipal } from './user-principal.js';

/** lastSeenAt is written at most once a minute per session, not on every request. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;
const PRUNE_INTERVAL_MS = 10 * 60_000;

/** The session strategy plus its background duty (deleting expired sessions and stale counters). */
export interface SessionAuthenticator {
  strategy: AuthStrategy;
  /** Deletes expired sessions and login counters that no longer matter. */
  prune(): Promise<void>;
  start(): void;
  stop(): void;
}

function readSessionCookie(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  // Parsed here rather than read from request.cookies: this runs in the access hook, whose order
  // relative to the cookie plugin's own hook is not guaranteed.
  return sessionTokenOf(request.server.parseCookie(header));
}

/**
 * Authenticates the session cookie (`__Host-cms_session` or `cms_session`). One query loads the session, its user and the user's
 * grants, so authorization is in memory; nothing is cached, so ending a session or disabling a
 * user takes effect at once in every process.
 */
export function createSessionAuthenticator(deps: {
  db: Queryable;
  secret: string;
  clock: Clock;
  requireMfa: RequireMfa;
}): SessionAuthenticator {
  let timer: NodeJS.Timeout | null = null;

  const strategy: AuthStrategy = async (request) => {
    const token = readSessionCookie(request);
    if (token === null) return null;
    const invalid = new CmsError('UNAUTHORIZED', 'Your session is invalid or has ended: sign in again.');
    if (!isWellFormedToken(token)) throw invalid;
    const row = await findSessionPrincipal(deps.db, hashToken(token));
    if (!row || row.disabledAt) throw invalid;
    const now = deps.clock();
    if (sessionExpiresAt(row).getTime() <= now.getTime()) {
      throw new CmsError('UNAUTHORIZED', 'Your session has expired: sign in again.');
    }
    if (now.getTime() - row.lastSeenAt.getTime() >= SESSION_TOUCH_INTERVAL_MS) {
      await touchSession(deps.db, row.id, now);
    }
    const actionId = request.routeOptions.config.action?.id;
    if (!row.mfaEnabled && isMfaRequired(deps.requireMfa, row) && actionId && !MFA_ENROLMENT_ACTIONS.has(actionId)) {
      throw new CmsError('MFA_ENROLMENT_REQUIRED');
    }
    return userPrincipal({
      id: row.userId,
      email: row.email,
      role: row.role,
      sessionId: row.id,
      csrfToken: csrfTokenFor(deps.secret, token),
      grants: row.grants,
    });
  };

  // Sessions are never cached (see above): a request with a cookie always takes the strategy.
  strategy.known = (headers) => (headers.cookie ? undefined : null);

  const prune = async () => {
    const now = deps.clock();
    await deleteExpiredSessions(deps.db, now, new Date(now.getTime() - SESSION_IDLE_MS));
    await deleteStaleThrottleRows(deps.db, new Date(now.getTime() - LOGIN_THROTTLE_FORGET_MS));
    await deleteExpiredMfaChallenges(deps.db, now);
  };

  return {
    strategy,
    prune,
    start() {
      timer = setInterval(() => {
        prune().catch(() => undefined);
      }, PRUNE_INTERVAL_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
