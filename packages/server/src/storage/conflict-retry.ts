import { setTimeout as sleep } from 'node:timers/promises';
import { CmsError } from '@cms/core';
import { isSqlState, SQLSTATE } from './db.js';

/** Attempts of one transaction (or statement) that PostgreSQL keeps aborting on a conflict. */
export const MAX_CONFLICT_ATTEMPTS = 5;
/** Backoff before the second attempt; doubled for each further one, up to the cap, with full jitter. */
const CONFLICT_BACKOFF_BASE_MS = 20;
const CONFLICT_BACKOFF_MAX_MS = 500;
/** Retry-After (seconds) of the answer when every attempt conflicted. */
const CONFLICT_RETRY_AFTER_SECONDS = 1;

/**
 * A deadlock victim (40P01) or a serialization failure (40001): PostgreSQL rolled the whole
 * transaction back, and the same transaction run again may well succeed.
 */
export function isTransientConflict(error: unknown): boolean {
  return isSqlState(error, SQLSTATE.deadlockDetected) || isSqlState(error, SQLSTATE.serializationFailure);
}

/** Full jitter (spreads the retries of the transactions that collided): 0 to base * 2^(attempt-1) ms. */
function backoffMs(attempt: number): number {
  return Math.random() * Math.min(CONFLICT_BACKOFF_MAX_MS, CONFLICT_BACKOFF_BASE_MS * 2 ** (attempt - 1));
}

/**
 * Runs `attempt` until it settles with anything but a transient conflict, at most
 * MAX_CONFLICT_ATTEMPTS times. `attempt` must be safe to repeat: a whole transaction, or one
 * statement outside any. When every attempt conflicted: SERVICE_UNAVAILABLE with Retry-After,
 * so the client learns that nothing was written and that the same request may succeed later.
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>): Promise<T> {
  for (let attempts = 1; ; attempts += 1) {
    try {
      return await attempt();
    } catch (error: unknown) {
      if (!isTransientConflict(error)) throw error;
      if (attempts >= MAX_CONFLICT_ATTEMPTS) throw conflictsExhausted(error);
      await sleep(backoffMs(attempts));
    }
  }
}

function conflictsExhausted(cause: unknown): CmsError {
  const error = new CmsError(
    'SERVICE_UNAVAILABLE',
    `Concurrent changes to the same data made the database abort this request ${MAX_CONFLICT_ATTEMPTS} times; nothing was written: retry it in a moment.`,
    {},
    { 'retry-after': String(CONFLICT_RETRY_AFTER_SECONDS) },
  );
  error.cause = cause;
  return error;
}
