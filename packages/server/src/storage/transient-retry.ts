import { setTimeout as sleep } from 'node:timers/promises';
import { CmsError } from '@cms/core';
import { isSqlState, SQLSTATE } from './db.js';

/**
 * Attempts of one transaction (or statement) that failed without taking effect: PostgreSQL aborted it
 * on a conflict, or its connection could not be had or failed before it could commit.
 */
export const MAX_TRANSIENT_ATTEMPTS = 5;
/** Backoff before the second attempt; doubled for each further one, up to the cap, with full jitter. */
const BACKOFF_BASE_MS = 20;
const BACKOFF_MAX_MS = 500;
/** Retry-After (seconds) of the answer when every attempt failed. */
const RETRY_AFTER_SECONDS = 1;

/**
 * A deadlock victim (40P01) or a serialization failure (40001): PostgreSQL rolled the whole
 * transaction back, and the same transaction run again may well succeed.
 */
export function isTransientConflict(error: unknown): boolean {
  return isSqlState(error, SQLSTATE.deadlockDetected) || isSqlState(error, SQLSTATE.serializationFailure);
}

/** SQLSTATEs of a session PostgreSQL ended or would not start (admin/crash shutdown, starting up, full). */
const CONNECTION_SQLSTATES: ReadonlySet<string> = new Set(['57P01', '57P02', '57P03', '53300']);
/** Socket errors of a connection that failed or could not be opened. */
const SOCKET_ERRORS: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres's errors for a connection that ended under a statement or was already unusable. */
const DRIVER_CONNECTION_MESSAGES: ReadonlySet<string> = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
]);

/**
 * The connection failed: PostgreSQL ended the session (restart, failover, `pg_terminate_backend`,
 * an idle timeout of the server or a proxy), the network dropped it, or no connection could be
 * opened. Whether a statement it carried took effect is not known from the error alone.
 */
export function isConnectionFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    // Class 08 is connection exceptions; 08P01 (protocol violation) is a bug, not a lost connection.
    const connectionException = code.startsWith('08') && code !== '08P01';
    if (connectionException || CONNECTION_SQLSTATES.has(code) || SOCKET_ERRORS.has(code)) return true;
  }
  return typeof message === 'string' && DRIVER_CONNECTION_MESSAGES.has(message);
}

/**
 * A connection failure known to have had no effect: no connection could be had, the transaction's
 * connection failed before its COMMIT was sent (PostgreSQL rolls back what it never committed), or
 * the statement writes nothing. The same work may be run again on another connection.
 */
export class FailedBeforeEffect extends Error {
  constructor(readonly failure: unknown) {
    super(failure instanceof Error ? failure.message : String(failure), { cause: failure });
    this.name = 'FailedBeforeEffect';
  }
}

/**
 * The database could not be reached: a lost or refused connection, or every retry of one failed
 * (SERVICE_UNAVAILABLE). An operational condition that passes, logged at warn, not a defect.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof FailedBeforeEffect) return true;
  if (error instanceof CmsError && error.code === 'SERVICE_UNAVAILABLE') return true;
  return isConnectionFailure(error);
}

/** Full jitter (spreads the retries of the transactions that collided): 0 to base * 2^(attempt-1) ms. */
function backoffMs(attempt: number): number {
  return Math.random() * Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
}

/**
 * Runs `attempt` until it settles with anything but a conflict or a `FailedBeforeEffect`, at most
 * MAX_TRANSIENT_ATTEMPTS times. `attempt` must be safe to repeat: a whole transaction, or one
 * statement outside any. The wait between attempts also lets the pool drop connections the server
 * closed meanwhile, so a lightly loaded server never shows one of them to a client. When every
 * attempt failed: SERVICE_UNAVAILABLE with Retry-After and the last failure as its cause, so the
 * client learns that nothing was written and that the same request may succeed later.
 */
export async function retryTransient<T>(attempt: () => Promise<T>): Promise<T> {
  for (let attempts = 1; ; attempts += 1) {
    try {
      return await attempt();
    } catch (error: unknown) {
      const conflict = isTransientConflict(error);
      if (!conflict && !(error instanceof FailedBeforeEffect)) throw error;
      if (attempts >= MAX_TRANSIENT_ATTEMPTS) throw exhausted(error, conflict);
      await sleep(backoffMs(attempts));
    }
  }
}

function exhausted(failure: unknown, conflict: boolean): CmsError {
  const error = new CmsError(
    'SERVICE_UNAVAILABLE',
    conflict
      ? `Concurrent changes to the same data made the database abort this request ${MAX_TRANSIENT_ATTEMPTS} times; nothing was written: retry it in a moment.`
      : `The database could not be reached (${MAX_TRANSIENT_ATTEMPTS} attempts); nothing was written: retry it in a moment.`,
    {},
    { 'retry-after': String(RETRY_AFTER_SECONDS) },
  );
  error.cause = failure instanceof FailedBeforeEffect ? failure.failure : failure;
  return error;
}
