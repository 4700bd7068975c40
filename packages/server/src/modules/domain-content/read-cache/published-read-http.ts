/**
 * HTTP side of published content reads (`GET /content`, `GET /content/{documentId}` without
 * `draft=true`), as route hooks: answers from the published read cache, a strong ETag on every
 * published answer, `If-None-Match` -> 304, and the `Cache-Control`/`Vary` a CDN needs
 * (docs/performance.md "HTTP caching"). Drafts, previews and session-authenticated answers are
 * `private, no-store` and never come from the cache.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  COMPRESS_MIN_BYTES,
  type ContentEncoding,
  compressSync,
  encodesItsOwnAnswer,
  negotiateEncoding,
} from '../../../http/compression.js';
import type { EarlyRead, EarlyReadAnswer } from '../../../http/early-reads.js';
import { urlForLog } from '../../../http/log-url.js';
import type { CachedAnswer, PublishedReadCache } from './published-read-cache.js';

/** What the published answer depends on besides the URL: routing headers, locale and API key. */
export const PUBLISHED_VARY = 'Authorization, X-CMS-Project, X-CMS-Environment, X-CMS-Locale';
const VARY_WITH_ENCODING = `${PUBLISHED_VARY}, Accept-Encoding`;
const PRIVATE = 'private, no-store';
const JSON_TYPE = 'application/json; charset=utf-8';

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
 * The key of a published answer: the environment, the URL as sent (path and query string) and
 * `X-CMS-Locale`. The caller is not part of it: a published answer is the same for everyone allowed
 * to read it (resolve shows published targets and reports unpublished ones as REFERENCE_FORBIDDEN for
 * every caller). The URL as sent, not the validated query, so that a hit is found before the query
 * is parsed and validated: only a URL whose own request passed validation and answered 200 is ever
 * stored, so the same URL needs no validation again. Two spellings of one query are two entries.
 */
function keyOf(url: string, headers: IncomingHttpHeaders, environmentId: string): string {
  const locale = headers['x-cms-locale'] ?? '';
  return `${environmentId}|${url}|${locale}`;
}

/**
 * Whether a validated request is a published read whose answer may be kept: a GET of a target's
 * published content by anyone but a preview token (which reads drafts only: its published reads are
 * refused by the service).
 */
function planOf(request: FastifyRequest, cache: PublishedReadCache): Plan | null {
  const query = request.query as Record<string, unknown> | undefined;
  const { ctx } = request;
  // A release preview shows drafts: never kept, so never answered to another caller.
  if (request.method !== 'GET' || query?.draft === true || query?.release !== undefined || !ctx.target) return null;
  if (ctx.principal.type === 'preview') return null;
  const { environmentId } = ctx.target;
  return { environmentId, key: keyOf(request.url, request.headers, environmentId), stamp: cache.stamp() };
}

function asksForFreshAnswer(headers: IncomingHttpHeaders): boolean {
  const control = headers['cache-control'];
  if (typeof control === 'string' && /(^|,)\s*no-cache\s*(,|$)/i.test(control)) return true;
  return headers.pragma === 'no-cache';
}

function isDraftRead(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  return query?.draft === true || query?.release !== undefined;
}

/**
 * The bytes and ETag of an answer in `encoding` (Brotli, gzip, or plain when null or when the answer is
 * too small to be kept compressed). Each encoding is its own representation, so its strong ETag is the
 * plain one with `-br` or `-gzip`.
 */
function representationOf(encoding: ContentEncoding | null, answer: CachedAnswer) {
  if (!encoding || !answer.encoded) return { body: answer.body, etag: answer.etag, encoding: null };
  return { body: answer.encoded[encoding], etag: `${answer.etag.slice(0, -1)}-${encoding}"`, encoding };
}

/** The encoding an answer is sent in for this `Accept-Encoding`: none when it is kept plain only. */
const encodingFor = (acceptEncoding: IncomingHttpHeaders['accept-encoding'], answer: CachedAnswer) =>
  answer.encoded ? negotiateEncoding(acceptEncoding) : null;

/** A stored answer: the body, its ETag, its compressed forms when it is large enough, who may read it. */
function answerOf(body: Buffer, request: FastifyRequest): CachedAnswer {
  const encoded =
    body.byteLength >= COMPRESS_MIN_BYTES ? { br: compressSync(body, 'br'), gzip: compressSync(body, 'gzip') } : null;
  const action = request.routeOptions.config.action;
  const access = { permissions: action?.permissions ?? [], anyPermissions: action?.anyPermissions ?? [] };
  return { body, etag: etagOf(body), encoded, access, logUrl: urlForLog(request) };
}

/**
 * A stored answer in one representation (an encoding, a `Cache-Control`): its 200 and its 304, each with
 * the ETag, the caching headers and the `Vary` a CDN needs, as the list of names and values `writeHead`
 * takes (the 200 with its type and length). Answered from memory before routing, they are made once per
 * stored answer and encoding and kept (`earlyPublishedRead`); http/early-reads.ts adds the security policy
 * and the request id, the route's own hooks add them on the full chain.
 */
interface PublishedForms {
  etag: string;
  ok: EarlyReadAnswer;
  notModified: EarlyReadAnswer;
}

function publishedForms(stored: CachedAnswer, encoding: ContentEncoding | null, cacheControl: string): PublishedForms {
  const answer = representationOf(encoding, stored);
  const headers = ['etag', answer.etag, 'cache-control', cacheControl, 'vary', VARY_WITH_ENCODING];
  if (answer.encoding) headers.push('content-encoding', answer.encoding);
  const common = { access: stored.access, logUrl: stored.logUrl };
  const ok = [...headers, 'content-type', JSON_TYPE, 'content-length', String(answer.body.byteLength)];
  return {
    etag: answer.etag,
    ok: { ...common, statusCode: 200, headers: ok, body: answer.body },
    notModified: { ...common, statusCode: 304, headers, body: null },
  };
}

/** The 304 when `If-None-Match` names the representation's ETag, else the 200. */
const formFor = (headers: IncomingHttpHeaders, forms: PublishedForms) =>
  matchesIfNoneMatch(headers['if-none-match'], forms.etag) ? forms.notModified : forms.ok;

/**
 * The answer to a published read from a stored one, for this request's headers: the representation its
 * `Accept-Encoding` takes, `private, no-store` to a session.
 */
function publishedAnswer(
  headers: IncomingHttpHeaders,
  stored: CachedAnswer,
  viaSession: boolean,
  settings: HttpCacheSettings,
): EarlyReadAnswer {
  const cacheControl = viaSession ? PRIVATE : publicCacheControl(settings);
  return formFor(headers, publishedForms(stored, encodingFor(headers['accept-encoding'], stored), cacheControl));
}

/** Sends a published answer through Fastify (the route's own hooks). */
function sendPublished(reply: FastifyReply, answer: EarlyReadAnswer): void {
  setHeaders(reply, answer.headers);
  reply.code(answer.statusCode).send(answer.body ?? undefined);
}

/** Sets a list of names and values in turn on the reply. */
function setHeaders(reply: FastifyReply, headers: readonly string[]): void {
  for (let index = 0; index < headers.length; index += 2) reply.header(headers[index] as string, headers[index + 1]);
}

/**
 * The published read answered before routing (http/early-reads.ts): a stored answer for the URL, in
 * the request's environment and locale, to an API key (never a session or a preview token) that did not
 * ask for a fresh answer. The early step checks the caller holds the permissions of the route that
 * stored it. Each stored answer's forms (by encoding) are kept beside it for as long as it is kept.
 */
export function earlyPublishedRead(cache: PublishedReadCache, settings: HttpCacheSettings): EarlyRead {
  const cacheControl = publicCacheControl(settings);
  const forms = new WeakMap<CachedAnswer, Partial<Record<ContentEncoding | 'identity', PublishedForms>>>();
  return ({ url, headers, principal, target }) => {
    if (principal.type !== 'apiKey' || principal.viaSession || asksForFreshAnswer(headers)) return null;
    const hit = cache.get(target.environmentId, keyOf(url, headers, target.environmentId));
    if (!hit) return null;
    const encoding = encodingFor(headers['accept-encoding'], hit);
    let byEncoding = forms.get(hit);
    if (!byEncoding) {
      byEncoding = {};
      forms.set(hit, byEncoding);
    }
    const kept = byEncoding[encoding ?? 'identity'];
    const made = kept ?? publishedForms(hit, encoding, cacheControl);
    if (!kept) byEncoding[encoding ?? 'identity'] = made;
    return formFor(headers, made);
  };
}

/**
 * The route hooks of a content read: `scope` holds only that route (the action's `setupScope`).
 * Callback-style hooks: they run on every published read, and cost less without a promise each.
 *
 * - `onRequest` (after the access steps of every route: authentication, target, permissions) answers
 *   a hit from memory, before the query is parsed and validated.
 * - `preHandler` (after validation) plans a miss: where its answer is kept, and the stamp before it reads.
 * - `onSend` keeps a planned 200 answer and sets its ETag and caching headers; drafts and previews are
 *   `private, no-store`.
 */
export function publishedReadHooks(cache: PublishedReadCache, settings: HttpCacheSettings) {
  const plans = new WeakMap<FastifyRequest, Plan>();
  return async function setupScope(scope: FastifyInstance): Promise<void> {
    scope.addHook('onRequest', (request, reply, done) => {
      const { target, principal } = request.ctx;
      // `Cache-Control: no-cache` (or `Pragma: no-cache`) asks for an answer read now: the fresh
      // answer still replaces the one in memory.
      if (request.method !== 'GET' || !target || principal.type === 'preview' || asksForFreshAnswer(request.headers)) {
        done();
        return;
      }
      const hit = cache.get(target.environmentId, keyOf(request.url, request.headers, target.environmentId));
      if (!hit) {
        done();
        return;
      }
      encodesItsOwnAnswer(request);
      sendPublished(reply, publishedAnswer(request.headers, hit, principal.viaSession, settings));
    });
    scope.addHook('preHandler', (request, _reply, done) => {
      const plan = planOf(request, cache);
      if (plan) {
        plans.set(request, plan);
        encodesItsOwnAnswer(request);
      }
      done();
    });
    scope.addHook('onSend', (request, reply, payload, done) => {
      // No plan: a hit (its headers are set), a draft or preview read, or a request refused before it.
      const plan = plans.get(request);
      if (!plan) {
        if (isDraftRead(request) || request.ctx.principal.type === 'preview') reply.header('cache-control', PRIVATE);
        done(null, payload);
        return;
      }
      if (reply.statusCode !== 200 || typeof payload !== 'string') {
        done(null, payload);
        return;
      }
      const stored = answerOf(Buffer.from(payload), request);
      cache.store(plan.environmentId, plan.key, plan.stamp, stored);
      const answer = publishedAnswer(request.headers, stored, request.ctx.principal.viaSession, settings);
      setHeaders(reply, answer.headers);
      reply.code(answer.statusCode);
      done(null, answer.body ?? '');
    });
  };
}
