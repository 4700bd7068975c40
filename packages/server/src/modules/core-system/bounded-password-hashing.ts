import { availableParallelism } from 'node:os';
import { CmsError } from '@cms/core';
import { assertNotCommonPassword } from './common-passwords.js';
import * as hashing from './password-hashing.js';

/**
 * At most this many argon2 computations run at once in one process; the rest wait their turn. Each
 * holds 19 MiB and a thread-pool thread, so a burst of sign-ins or unauthenticated setup/invite
 * requests cannot exhaust memory or starve the other work of the pool.
 */
export const PASSWORD_HASH_CONCURRENCY = Math.max(2, Math.min(availableParallelism(), 4));
/**
 * At most this many wait for a slot; one more is refused at once with `503 SERVICE_UNAVAILABLE` and
 * `Retry-After`, instead of joining a line that grows with the burst (each waiter holds a request open,
 * and a line of thousands answers none of them in time). 64 waiting at 2-4 at once, each hash tens of
 * milliseconds, is about a second of wait.
 */
export const PASSWORD_HASH_MAX_WAITING = 64;
/** What a refused caller is told to wait (`Retry-After`): about what the whole line takes. */
export const PASSWORD_HASH_RETRY_AFTER_SECONDS = 1;

/** The refusal of a full waiting line (docs/access-control.md "Passwords"). */
function busy(): CmsError {
  const seconds = PASSWORD_HASH_RETRY_AFTER_SECONDS;
  return new CmsError(
    'SERVICE_UNAVAILABLE',
    `The server is checking too many passwords at once: retry in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    { retryAfterSeconds: seconds },
    { 'retry-after': String(seconds) },
  );
}

/**
 * A counting semaphore: `run` waits for a free slot, in arrival order; with `maxWaiting`, a caller
 * that finds that many already waiting is refused with the error `full()` makes.
 */
export function createGate(size: number, limit: { maxWaiting: number; full: () => Error } | null = null) {
  let inFlight = 0;
  let peak = 0;
  let started = 0;
  let refused = 0;
  const waiting: Array<() => void> = [];
  // A finishing caller hands its slot to the first waiter, so one arriving meanwhile cannot take it too.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else inFlight -= 1;
  };
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (inFlight < size) inFlight += 1;
      else if (limit && waiting.length >= limit.maxWaiting) {
        refused += 1;
        throw limit.full();
      } else await new Promise<void>((resolve) => waiting.push(resolve));
      started += 1;
      peak = Math.max(peak, inFlight);
      try {
        return await work();
      } finally {
        release();
      }
    },
    /** Would `run` take work now without refusing it (a slot free, or room in the line)? */
    hasRoom: () => inFlight < size || !limit || waiting.length < limit.maxWaiting,
    /** How many ran so far and the most that ran at once (for tests and diagnostics). */
    stats: () => ({ started, peak, inFlight, waiting: waiting.length, refused }),
  };
}

/** The process's one gate around password hashing and verification. */
export const passwordHashGate = createGate(PASSWORD_HASH_CONCURRENCY, {
  maxWaiting: PASSWORD_HASH_MAX_WAITING,
  full: busy,
});

/** `hashPassword`, at most PASSWORD_HASH_CONCURRENCY at once. */
export function hashPassword(password: string): Promise<string> {
  return passwordHashGate.run(() => hashing.hashPassword(password));
}

/**
 * `hashPassword` when the line has room, else null (no wait, no refusal): for work that can wait for
 * another time, such as rehashing a password whose parameters rose.
 */
export function hashPasswordUnlessBusy(password: string): Promise<string | null> {
  if (!passwordHashGate.hasRoom()) return Promise.resolve(null);
  return hashPassword(password);
}

/** `verifyPassword`, at most PASSWORD_HASH_CONCURRENCY at once. */
export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return passwordHashGate.run(() => hashing.verifyPassword(hash, password));
}

/** `verifyAgainstNothing`, at most PASSWORD_HASH_CONCURRENCY at once. */
export function verifyAgainstNothing(password: string): Promise<false> {
  return passwordHashGate.run(() => hashing.verifyAgainstNothing(password));
}

export { passwordNeedsRehash } from './password-hashing.js';

/**
 * The password rules for a new password: 12 to 256 characters (`password-hashing.ts`), and not one of
 * the common, breached passwords (`common-passwords.ts`). Throws INVALID_INPUT at `field`.
 */
export function assertPasswordPolicy(password: string, field = 'body.password'): void {
  hashing.assertPasswordPolicy(password, field);
  assertNotCommonPassword(password, field);
}
