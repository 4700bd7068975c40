import { availableParallelism } from 'node:os';
import { assertNotCommonPassword } from './common-passwords.js';
import * as hashing from './password-hashing.js';

/**
 * At most this many argon2 computations run at once in one process; the rest wait their turn. Each
 * holds 19 MiB and a thread-pool thread, so a burst of sign-ins or unauthenticated setup/invite
 * requests cannot exhaust memory or starve the other work of the pool.
 */
export const PASSWORD_HASH_CONCURRENCY = Math.max(2, Math.min(availableParallelism(), 4));

/** A counting semaphore: `run` waits for a free slot, in arrival order. */
export function createGate(size: number) {
  let inFlight = 0;
  let peak = 0;
  let started = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    inFlight -= 1;
    waiting.shift()?.();
  };
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (inFlight >= size) await new Promise<void>((resolve) => waiting.push(resolve));
      inFlight += 1;
      started += 1;
      peak = Math.max(peak, inFlight);
      try {
        return await work();
      } finally {
        release();
      }
    },
    /** How many ran so far and the most that ran at once (for tests and diagnostics). */
    stats: () => ({ started, peak, inFlight, waiting: waiting.length }),
  };
}

/** The process's one gate around password hashing and verification. */
export const passwordHashGate = createGate(PASSWORD_HASH_CONCURRENCY);

/** `hashPassword`, at most PASSWORD_HASH_CONCURRENCY at once. */
export function hashPassword(password: string): Promise<string> {
  return passwordHashGate.run(() => hashing.hashPassword(password));
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
