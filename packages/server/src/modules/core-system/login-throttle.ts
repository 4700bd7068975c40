import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CmsError } from '@cms/core';
import type { FastifyBaseLogger } from 'fastify';
import { noteAuditAggregated, noteAuditDetail } from '../../audit/audit-scope.js';
import type { Clock } from '../../clock.js';
import type { Queryable } from '../../storage/db.js';
import {
  countThrottledRefusal,
  deleteThrottleRow,
  findThrottleRows,
  refundThrottleAttempt,
  reserveThrottleAttempt,
  type ThrottleReservation,
} from '../../storage/repositories/login-throttle.repository.js';
import type { AttemptSource, DeviceCookies } from './device-cookies.js';
import { normalizeEmail } from './user-records.js';

/**
 * Login backoff (decisions.md §5, docs/access-control.md "Login backoff"): after 5 failures for one
 * (email, address) pair, one client address or one known device within 15 minutes, each further attempt
 * from there must wait 30 s, doubling with every failure up to 15 minutes. Failures of one email from
 * anywhere only slow its attempts (`emailSlowdownAfter`), so nobody can lock an owner out from elsewhere.
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

function keyHash(kind: 'email' | 'address' | 'pair' | 'device', value: string): Buffer {
  return createHash('sha256').update(`${kind}\u0000${value}`).digest();
}

/**
 * After this many failures for one email within the window (from anywhere), each further attempt without
 * a known device waits before its check: 1 s, doubling, at most {@link EMAIL_SLOWDOWN_MAX_MS}. It only
 * slows: a right password from an address that has not failed itself is never refused for it.
 */
export const EMAIL_SLOWDOWN_BASE_MS = 1000;
export const EMAIL_SLOWDOWN_MAX_MS = 5000;

/** How long an attempt waits when its email has had `failures` (this one included) in the window. */
export function emailSlowdownAfter(failures: number): number {
  if (failures <= LOGIN_FAILURE_LIMIT) return 0;
  return Math.min(EMAIL_SLOWDOWN_BASE_MS * 2 ** (failures - LOGIN_FAILURE_LIMIT - 1), EMAIL_SLOWDOWN_MAX_MS);
}

/**
 * The counters one sign-in attempt is checked against and charged to (docs/access-control.md "Login
 * backoff"). From a known device (a cookie signed for this email at an earlier sign-in): the device's own
 * counter alone. Otherwise the (email, address) pair's and the address's, which refuse while in backoff,
 * and the email's, which only slows.
 */
export interface ThrottleKeys {
  /** The email as signed in (normalised): what a device cookie issued on success names. */
  email: string;
  /** Counters that refuse (RATE_LIMITED) while in backoff, the widest first. */
  blocking: BlockingKey[];
  /** The email's counter, which only slows (null from a known device). */
  signal: Buffer | null;
  /** Counters a success clears: the pair's or the device's, and the email's. */
  clearedBySuccess: Buffer[];
  /** The address's counter: a success gives its one attempt back, never clears it (null from a known device). */
  address: Buffer | null;
  /** The known device's id, or null. */
  deviceId: string | null;
}

/** A counter that refuses while in backoff, and what it counts (named in the audit entry of a refusal). */
export interface BlockingKey {
  kind: 'address' | 'email and address' | 'device';
  key: Buffer;
}

/** Checks and records sign-in failures per (email, address), per address, per known device, and per email. */
export function createLoginThrottle(deps: {
  db: Queryable;
  clock: Clock;
  devices: DeviceCookies;
  log: FastifyBaseLogger;
}) {
  const rule = { limit: LOGIN_FAILURE_LIMIT, baseMs: LOGIN_BACKOFF_BASE_MS, maxMs: LOGIN_BACKOFF_MAX_MS };

  /**
   * RATE_LIMITED with the longest wait of the blocking counters in backoff. Its audit entry is written
   * once per counter and backoff window (the widest counter in backoff): later refusals in that window
   * write none, and the first entry of the counter's next window says how many there were.
   */
  const refusal = async (keys: ThrottleKeys, now: Date): Promise<CmsError> => {
    const rows = await findThrottleRows(
      deps.db,
      keys.blocking.map((entry) => entry.key),
    );
    let waitMs = 1000;
    let held: { kind: BlockingKey['kind']; key: Buffer } | null = null;
    for (const entry of keys.blocking) {
      const row = rows.find((candidate) => Buffer.from(candidate.keyHash).equals(entry.key));
      if (!row) continue;
      const last = row.lastFailureAt.getTime();
      if (last < now.getTime() - LOGIN_FAILURE_WINDOW_MS) continue;
      const left = last + backoffAfter(row.failures) - now.getTime();
      if (left > 0) held ??= entry;
      waitMs = Math.max(waitMs, left);
    }
    const seconds = Math.ceil(waitMs / 1000);
    if (held) {
      const counted = await countThrottledRefusal(deps.db, held.key);
      if (counted.first) {
        noteAuditDetail('throttle', {
          counter: held.kind,
          retryAfterSeconds: seconds,
          ...(counted.refusedBefore > 0 ? { refusedInWindowBefore: counted.refusedBefore } : {}),
        });
      } else {
        noteAuditAggregated();
      }
    }
    return new CmsError(
      'RATE_LIMITED',
      `Too many failed sign-ins: wait ${seconds} seconds before trying again.`,
      { retryAfterSeconds: seconds },
      { 'retry-after': String(seconds) },
    );
  };

  return {
    keysFor(email: string, from: AttemptSource): ThrottleKeys {
      const normalized = normalizeEmail(email);
      const deviceId = deps.devices.deviceIdOf(from.deviceCookie, normalized);
      const emailKey = keyHash('email', normalized);
      if (deviceId !== null) {
        const device = keyHash('device', deviceId);
        return {
          email: normalized,
          blocking: [{ kind: 'device', key: device }],
          signal: null,
          clearedBySuccess: [device, emailKey],
          address: null,
          deviceId,
        };
      }
      const pair = keyHash('pair', `${normalized}\u0000${clientKeyOf(from.address)}`);
      const address = clientAddressHash(from.address);
      return {
        email: normalized,
        blocking: [
          { kind: 'address', key: address },
          { kind: 'email and address', key: pair },
        ],
        signal: emailKey,
        clearedBySuccess: [pair, emailKey],
        address,
        deviceId,
      };
    },

    /**
     * Reserves one attempt before the secret is checked: the check and the charge are one SQL statement,
     * so parallel requests cannot all slip through a check made before any is charged. Throws
     * RATE_LIMITED with Retry-After while a blocking counter is in backoff; waits the email's slowdown
     * otherwise. The attempt counts as a failure unless `recordSuccess` or `refund` gives it back.
     */
    async reserveAttempt(keys: ThrottleKeys): Promise<ThrottleReservation[]> {
      const now = deps.clock();
      const windowStart = new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS);
      const blocking = keys.blocking.map((entry) => entry.key);
      const all = keys.signal ? [...blocking, keys.signal] : blocking;
      const signal = keys.signal ? [keys.signal] : [];
      const reserved = await reserveThrottleAttempt(deps.db, all, signal, now, windowStart, rule);
      if (!reserved) throw await refusal(keys, now);
      const email = keys.signal && reserved.find((row) => Buffer.from(row.keyHash).equals(keys.signal as Buffer));
      const delayMs = email ? emailSlowdownAfter(email.failures) : 0;
      if (delayMs > 0) {
        deps.log.info(
          { delayMs, emailFailures: email ? email.failures : 0 },
          'sign-in attempt slowed: its email had many failures from elsewhere',
        );
        await sleep(delayMs);
      }
      return reserved;
    },

    /**
     * Runs the check of the secret for a reserved attempt. When the check throws instead of answering
     * (the password-hashing line is full, the database fails), nothing was guessed: the attempt is given
     * back before the error goes on, so a busy server never pushes anyone into backoff.
     */
    async check<T>(reserved: readonly ThrottleReservation[], work: () => Promise<T>): Promise<T> {
      try {
        return await work();
      } catch (error: unknown) {
        for (const reservation of reserved) await refundThrottleAttempt(deps.db, reservation);
        throw error;
      }
    },

    /** Gives the reserved attempt back to every counter (the secret was right, yet no sign-in). */
    async refund(reserved: readonly ThrottleReservation[]): Promise<void> {
      for (const reservation of reserved) await refundThrottleAttempt(deps.db, reservation);
    },

    /**
     * A success clears the pair's (or the device's) counter and the email's, and gives the address its
     * reserved attempt back, no more: clearing the address's counter would let one attacker reset it by
     * signing in to an account of their own between guesses.
     */
    async recordSuccess(keys: ThrottleKeys, reserved: readonly ThrottleReservation[]): Promise<void> {
      for (const key of keys.clearedBySuccess) await deleteThrottleRow(deps.db, key);
      const address = reserved.find(
        (reservation) => keys.address && Buffer.from(reservation.keyHash).equals(keys.address),
      );
      if (address) await refundThrottleAttempt(deps.db, address);
    },

    /** The device cookie a successful sign-in sets: the known device's id again, or a new one. */
    deviceCookieFor(keys: ThrottleKeys): string {
      return deps.devices.issue(keys.email, keys.deviceId);
    },
  };
}

/** The login throttle's type. */
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
