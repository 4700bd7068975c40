import { createHash } from 'node:crypto';
import { CmsError } from '@cms/core';
import type { Clock } from '../../clock.js';
import type { Queryable } from '../../storage/db.js';
import {
  deleteThrottleRow,
  findThrottleRows,
  refundThrottleAttempt,
  reserveThrottleAttempt,
  type ThrottleReservation,
} from '../../storage/repositories/login-throttle.repository.js';

/**
 * Login backoff (decisions.md §5): after 5 failures for one email or one client address within
 * 15 minutes, each further attempt must wait 30 s, doubling with every failure up to 15 minutes.
 * Counters live in the database, so every process and every restart sees the same ones.
 */
export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
export const LOGIN_BACKOFF_BASE_MS = 30_000;
export const LOGIN_BACKOFF_MAX_MS = 15 * 60_000;
/** A counter whose last failure is older than this can be deleted: it can neither block nor grow. */
export const LOGIN_THROTTLE_FORGET_MS = Math.max(LOGIN_FAILURE_WINDOW_MS, LOGIN_BACKOFF_MAX_MS);

/** How long to wait after the n-th failure in a window (none before the limit). */
export function backoffAfter(failures: number): number {
  if (failures < LOGIN_FAILURE_LIMIT) return 0;
  return Math.min(LOGIN_BACKOFF_BASE_MS * 2 ** (failures - LOGIN_FAILURE_LIMIT), LOGIN_BACKOFF_MAX_MS);
}

/**
 * The part of an address that identifies one client: IPv4 as is, IPv6 by its /64 (one host
 * usually holds a whole /64, so counting single IPv6 addresses would be trivial to dodge).
 */
export function clientKeyOf(address: string): string {
  const plain = address.split('%')[0] ?? address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped?.[1]) return mapped[1];
  if (!plain.includes(':')) return plain;
  const [head = '', tail] = plain.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  const prefix = groups.slice(0, 4).map((group) => Number.parseInt(group || '0', 16).toString(16));
  return `${prefix.join(':')}::/64`;
}

/** How a client address is stored: a hash of its client key (`clientKeyOf`), never the address. */
export function clientAddressHash(address: string): Buffer {
  return keyHash('address', clientKeyOf(address));
}

function keyHash(kind: 'email' | 'address', value: string): Buffer {
  return createHash('sha256').update(`${kind}\u0000${value}`).digest();
}

/** The counters one sign-in attempt is checked against and charged to. */
export interface ThrottleKeys {
  email: Buffer;
  address: Buffer;
}

/** Checks and records sign-in failures per email and per client address. */
export function createLoginThrottle(deps: { db: Queryable; clock: Clock }) {
  return {
    keysFor(email: string, address: string): ThrottleKeys {
      return { email: keyHash('email', email), address: clientAddressHash(address) };
    },

    /**
     * Reserves one attempt before the password is checked: the check and the charge are one SQL
     * statement, so parallel requests cannot all slip through a check made before any is charged.
     * Throws RATE_LIMITED with Retry-After while either counter is in backoff. The attempt counts
     * as a failure unless `recordSuccess` gives it back.
     */
    async reserveAttempt(keys: ThrottleKeys): Promise<ThrottleReservation[]> {
      const now = deps.clock();
      const windowStart = new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS);
      const rule = { limit: LOGIN_FAILURE_LIMIT, baseMs: LOGIN_BACKOFF_BASE_MS, maxMs: LOGIN_BACKOFF_MAX_MS };
      const reserved = await reserveThrottleAttempt(deps.db, [keys.email, keys.address], now, windowStart, rule);
      if (reserved) return reserved;
      const rows = await findThrottleRows(deps.db, [keys.email, keys.address]);
      let waitMs = 1000;
      for (const row of rows) {
        const last = row.lastFailureAt.getTime();
        if (last < now.getTime() - LOGIN_FAILURE_WINDOW_MS) continue;
        waitMs = Math.max(waitMs, last + backoffAfter(row.failures) - now.getTime());
      }
      const seconds = Math.ceil(waitMs / 1000);
      throw new CmsError(
        'RATE_LIMITED',
        `Too many failed sign-ins: wait ${seconds} seconds before trying again.`,
        { retryAfterSeconds: seconds },
        { 'retry-after': String(seconds) },
      );
    },

    /** Gives the reserved attempt back to both counters (the password was right, yet no sign-in). */
    async refund(reserved: readonly ThrottleReservation[]): Promise<void> {
      for (const reservation of reserved) await refundThrottleAttempt(deps.db, reservation);
    },

    /**
     * A successful sign-in clears the email's counter and gives the address its reserved attempt
     * back, no more: clearing the address's counter would let one attacker reset it by signing in
     * to an account of their own between guesses.
     */
    async recordSuccess(keys: ThrottleKeys, reserved: readonly ThrottleReservation[]): Promise<void> {
      await deleteThrottleRow(deps.db, keys.email);
      const address = reserved.find((reservation) => Buffer.from(reservation.keyHash).equals(keys.address));
      if (address) await refundThrottleAttempt(deps.db, address);
    },
  };
}

/** The login throttle's type. */
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
