/**
 * Response compression: Brotli or gzip, whichever the client's `Accept-Encoding` prefers (Brotli on a
 * tie), for text the server sends (JSON, HTML, JavaScript, CSS, SVG, plain text) of at least
 * COMPRESS_MIN_BYTES. Every such answer carries `Vary: Accept-Encoding`, compressed or not, so a cache
 * in between keeps one copy per encoding. Bytes that are already compressed are sent as they are: the
 * published read cache keeps each answer's Brotli and gzip bytes (compressed once, when stored), and the
 * Studio's files are compressed at build time (`.br` and `.gz` next to each file).
 */

import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type ContentEncoding = 'br' | 'gzip';

/** Smaller bodies gain a few bytes at most: not worth a compression or a `Content-Encoding`. */
export const COMPRESS_MIN_BYTES = 1024;
/** Above this, compression runs on the thread pool rather than in the event loop. */
const SYNC_LIMIT_BYTES = 64 * 1024;
/**
 * Brotli quality 5 and gzip level 6: for JSON of a few KB to a few hundred KB, Brotli 5 is already
 * smaller than gzip 9, at a fraction of Brotli 11's time (which the Studio's files get at build time).
 */
const BROTLI_OPTIONS = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};
const GZIP_OPTIONS = { level: 6 };
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const COMPRESSIBLE = /^(application\/(json|javascript|problem\+json|xml)|text\/|image\/svg\+xml)/i;

const negotiator = new Negotiator<ContentEncoding>({ supportedValues: ['br', 'gzip'] });
/**
 * The answers by `Accept-Encoding` value: clients send a handful of spellings, each parsed once. Any
 * client may send any value, so past NEGOTIATED_MAX spellings the memory starts over.
 */
const negotiated = new Map<string, ContentEncoding | null>();
const NEGOTIATED_MAX = 256;

/** The encoding to answer with for this `Accept-Encoding`, or null (identity). */
export function negotiateEncoding(acceptEncoding: string | string[] | undefined): ContentEncoding | null {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding;
  if (!header) return null;
  let encoding = negotiated.get(header);
  if (encoding === undefined) {
    // Content codings are case-insensitive (RFC 9110 8.4.1); the negotiator compares them as written.
    encoding = negotiator.negotiate(header.toLowerCase());
    if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
    negotiated.set(header, encoding);
  }
  return encoding;
}

/** `body` compressed with `encoding`, in this thread (for bodies compressed once and kept). */
export function compressSync(body: Buffer, encoding: ContentEncoding): Buffer {
  return encoding === 'br' ? brotliCompressSync(body, BROTLI_OPTIONS) : gzipSync(body, GZIP_OPTIONS);
}

/** Adds `Accept-Encoding` to the reply's `Vary` (once). */
export function varyOnAcceptEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const current = Array.isArray(vary) ? vary.join(', ') : vary === undefined ? '' : String(vary);
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(current)) return;
  reply.header('vary', current ? `${current}, Accept-Encoding` : 'Accept-Encoding');
}

/** Sets the headers of an answer sent with `encoding` (the body is already encoded). */
export function markEncoded(reply: FastifyReply, encoding: ContentEncoding | null): void {
  varyOnAcceptEncoding(reply);
  if (encoding) reply.header('content-encoding', encoding);
}

/** Requests whose answer a route's own hooks encode (the published read cache's): left alone here. */
const encodedByRoute = new WeakSet<FastifyRequest>();
export function encodesItsOwnAnswer(request: FastifyRequest): void {
  encodedByRoute.add(request);
}

/**
 * The app-wide `onSend` hook: compresses a text answer the route did not encode itself. Registered on
 * the root instance first, it runs before the hooks of a route's own scope. Callback-style: it runs on
 * every answer, and most need no promise.
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (encodedByRoute.has(request) || reply.hasHeader('content-encoding')) return done(null, payload);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    if (reply.statusCode === 204 || reply.statusCode === 304 || reply.statusCode < 200) return done(null, payload);
    // Byte ranges (media files) count bytes of the plain file: such answers go out as they are.
    if (reply.statusCode === 206 || reply.hasHeader('content-range') || reply.hasHeader('accept-ranges')) {
      return done(null, payload);
    }
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !COMPRESSIBLE.test(type)) return done(null, payload);
    varyOnAcceptEncoding(reply);
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const encoding =
      body.byteLength < COMPRESS_MIN_BYTES ? null : negotiateEncoding(request.headers['accept-encoding']);
    if (!encoding) return done(null, payload);
    const send = (encoded: Buffer) => {
      reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      done(null, encoded);
    };
    if (body.byteLength <= SYNC_LIMIT_BYTES) return send(compressSync(body, encoding));
    const pending = encoding === 'br' ? brotliAsync(body, BROTLI_OPTIONS) : gzipAsync(body, GZIP_OPTIONS);
    pending.then(send, (error: Error) => done(error));
  });
}
