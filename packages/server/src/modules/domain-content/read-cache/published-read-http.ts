/**
 * HTTP side of published content reads (`GET /content`, `GET /content/{documentId}` without
 * `draft=true`), as route hooks: answers from the published read cache, a strong ETag on every
 * published answer, `If-None-Match` -> 304, and the `Cache-Control`/`Vary` a CDN needs
 * (docs/performance.md "HTTP caching"). Drafts, previews and session-authenticated answers are
 * `private, no-store` and never come from the cache.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PublishedReadCache } from './published-read-cache.js';

/** What the published answer depends on besides the URL: routing headers, locale and API key. */
export const PUBLISHED_VARY = 'Authorization, X-CMS-Project, X-CMS-Environment, X-CMS-Locale';
const PRIVATE = 'private, no-store';

/** HTTP caching settings (docs/configuration.md). */
export interface HttpCacheSettings {
  maxAgeSeconds: number;
  staleWhileRevalidateSeconds: number;
}

/** A published read in flight: where its answer is kept, and the stamp taken before it read. */
interface Plan {
  environmentId: string;
  key: string;
  stamp: number;
  /** Answered from the cache: onSend leaves it alone. */
  served: boolean;
}

/** A strong validator of exact body bytes. */
export function etagOf(body: Buffer | string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** Does `If-None-Match` name `etag` (a list, `*`, or weak forms of it)? */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === etag || tag === `W/${etag}`;
  });
}

function publicCacheControl(settings: HttpCacheSettings): string {
  if (settings.maxAgeSeconds <= 0) return 'public, no-cache';
  const swr =
    settings.staleWhileRevalidateSeconds > 0 ? `, stale-while-revalidate=${settings.staleWhileRevalidateSeconds}` : '';
  return `public, max-age=${settings.maxAgeSeconds}${swr}`;
}

/**
 * Whether a request is a published read that may be cached, and the key of its answer: the
 * environment, the route, the document id and the validated query, and `X-CMS-Locale`. The caller
 * is not part of it: a published answer is the same for everyone allowed to read it (resolve shows
 * published targets and reports unpublished ones as REFERENCE_FORBIDDEN for every caller).
 */
function planOf(request: FastifyRequest, cache: PublishedReadCache): Plan | null {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const { ctx } = request;
  if (request.method !== 'GET' || query.draft === true || !ctx.target) return null;
  // A preview token reads drafts only: its published reads are refused by the service.
  if (ctx.principal.type === 'preview') return null;
  const action = request.routeOptions.config.action?.id ?? '';
  const params = JSON.stringify(request.params ?? {});
  const locale = request.headers['x-cms-locale'] ?? '';
  const key = `${ctx.target.environmentId}|${action}|${params}|${JSON.stringify(query)}|${locale}`;
  return { environmentId: ctx.target.environmentId, key, stamp: cache.stamp(), served: false };
}

function asksForFreshAnswer(request: FastifyRequest): boolean {
  const control = request.headers['cache-control'];
  if (typeof control === 'string' && /(^|,)\s*no-cache\s*(,|$)/i.test(control)) return true;
  return request.headers.pragma === 'no-cache';
}

function isDraftRead(request: FastifyRequest): boolean {
  return (request.query as Record<string, unknown> | undefined)?.draft === true;
}

/** Headers of a published answer with this ETag. */
function setPublishedHeaders(request: FastifyRequest, reply: FastifyReply, etag: string, settings: HttpCacheSettings) {
  reply.header('etag', etag);
  reply.header('cache-control', request.ctx.principal.viaSession ? PRIVATE : publicCacheControl(settings));
  reply.header('vary', PUBLISHED_VARY);
}

/**
 * The route hooks of a content read: `scope` holds only that route (the action's `setupScope`).
 */
export function publishedReadHooks(cache: PublishedReadCache, settings: HttpCacheSettings) {
  const plans = new WeakMap<FastifyRequest, Plan>();
  return async function setupScope(scope: FastifyInstance): Promise<void> {
    scope.addHook('preHandler', async (request, reply) => {
      const plan = planOf(request, cache);
      if (!plan) return;
      plans.set(request, plan);
      // `Cache-Control: no-cache` (or `Pragma: no-cache`) asks for an answer read now: the fresh
      // answer still replaces the one in memory.
      if (asksForFreshAnswer(request)) return;
      const hit = cache.get(plan.environmentId, plan.key);
      if (!hit) return;
      plan.served = true;
      setPublishedHeaders(request, reply, hit.etag, settings);
      if (matchesIfNoneMatch(request.headers['if-none-match'], hit.etag)) {
        return reply.code(304).send();
      }
      return reply.code(200).type('application/json; charset=utf-8').send(hit.body);
    });
    scope.addHook('onSend', async (request, reply, payload) => {
      if (isDraftRead(request) || request.ctx.principal.type === 'preview') {
        reply.header('cache-control', PRIVATE);
        return payload;
      }
      const plan = plans.get(request);
      if (!plan || plan.served || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const body = Buffer.from(payload);
      const etag = etagOf(body);
      cache.store(plan.environmentId, plan.key, plan.stamp, { body, etag });
      setPublishedHeaders(request, reply, etag, settings);
      if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
        reply.code(304);
        return '';
      }
      return body;
    });
  };
}
