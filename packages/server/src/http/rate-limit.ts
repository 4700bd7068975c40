import { createHash } from 'node:crypto';
import { CmsError } from '@cms/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AnyAction } from '../actions/define-action.js';
import type { Clock } from '../clock.js';
import { clientKeyOf } from '../modules/core-system/login-throttle.js';
import type { Queryable } from '../storage/db.js';
import { countRateLimitHit, deleteStaleRateLimitHits } from '../storage/repositories/rate-limits.repository.js';

/** The window the limit counts in. */
export const RATE_LIMIT_WINDOW_MS = 60_000;
/** Stale counters are deleted every this many counted requests (per process). */
const PRUNE_EVERY = 200;

/**
 * Is this route rate limited? Every command that takes no credentials: sign-in, setup, invite accept,
 * single sign-on, the command-line sign-in. Public reads (health checks, media files, the OpenAPI
 * document, provider lists) are not: they are cheap, and proxies and CDNs call them often.
 */
export function isRateLimited(request: FastifyRequest): boolean {
  const action = request.routeOptions.config.action;
  return action !== undefined && isRateLimitedAction(action);
}

/** The rule of {@link isRateLimited} on a declaration (OpenAPI lists RATE_LIMITED where it holds). */
export function isRateLimitedAction(action: Pick<AnyAction, 'auth' | 'kind'>): boolean {
  return action.auth === 'public' && action.kind === 'command';
}

/**
 * General rate limit (docs/operations.md "Rate limits"): at most `perMinute` requests per client
 * address (an IPv4 address, an IPv6 /64) and route in each minute, counted in the database so every
 * process shares the counters; the next one answers `429 RATE_LIMITED` with `Retry-After`. Runs
 * before the access steps and before any body is parsed. `perMinute` 0 turns it off.
 */
export function registerRateLimit(
  app: FastifyInstance,
  deps: { db: Queryable; clock: Clock; perMinute: number },
): void {
  if (deps.perMinute <= 0) return;
  let counted = 0;
  app.addHook('onRequest', async (request) => {
    if (!isRateLimited(request)) return;
    const now = deps.clock().getTime();
    const windowStart = now - (now % RATE_LIMIT_WINDOW_MS);
    const key = createHash('sha256')
      .update(`${request.routeOptions.config.action?.id}\u0000${clientKeyOf(request.ip)}`)
      .digest();
    const hits = await countRateLimitHit(deps.db, key, new Date(windowStart));
    counted += 1;
    if (counted % PRUNE_EVERY === 0) await deleteStaleRateLimitHits(deps.db, new Date(windowStart));
    if (hits <= deps.perMinute) return;
    const seconds = Math.max(1, Math.ceil((windowStart + RATE_LIMIT_WINDOW_MS - now) / 1000));
    throw new CmsError(
      'RATE_LIMITED',
      `Too many requests from this address: wait ${seconds} seconds before trying again.`,
      { retryAfterSeconds: seconds },
      { 'retry-after': String(seconds) },
    );
  });
}
