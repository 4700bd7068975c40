import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentDispositionFor } from '../../../media/media-filename.js';
import {
  type ByteRange,
  type MediaObject,
  type MediaObjectInfo,
  MediaRangeNotSatisfiableError,
} from '../../../media/media-storage.js';
import type { MediaRow } from '../../../storage/repositories/media.repository.js';

/** A media id never changes content, so caches may keep a file as long as they like (docs/api.md "Media"). */
export const MEDIA_FILE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Stops scripts in a file opened directly (SVG, HTML-like attachments) from running on this origin. */
export const MEDIA_FILE_SANDBOX_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const INLINE_PREFIXES = ['image/', 'video/', 'audio/'];
const INLINE_TYPES = new Set(['application/pdf']);
const SVG = 'image/svg+xml';
const PDF = 'application/pdf';

/** How the file service reads stored objects. */
export interface MediaFileReader {
  openFile(row: MediaRow, range?: ByteRange): Promise<MediaObject>;
  headFile(row: MediaRow): Promise<MediaObjectInfo>;
}

/** What a Range header asks for, resolved against the file size (RFC 9110 §14.2). */
export type RangeRequest =
  | { kind: 'whole' }
  | { kind: 'range'; start: number; end: number }
  | { kind: 'unsatisfiable' };

/**
 * Sends a stored file with its validators and caching headers: 304 when the client's copy is
 * current, 206 for one satisfiable range, 416 when it is outside the file, else 200. The storage
 * stream is destroyed when the client goes away.
 */
export async function sendMediaFile(
  request: FastifyRequest,
  reply: FastifyReply,
  row: MediaRow,
  files: MediaFileReader,
): Promise<FastifyReply> {
  const etag = `"${row.id}"`;
  const lastModified = row.uploadedAt.toUTCString();
  const validators = { etag, 'last-modified': lastModified, 'cache-control': MEDIA_FILE_CACHE_CONTROL };
  if (isNotModified(request, etag, row.uploadedAt)) return reply.code(304).headers(validators).send();

  const headers = { ...validators, ...representationHeaders(row), 'accept-ranges': 'bytes' };
  if (request.method === 'HEAD') {
    const info = await files.headFile(row);
    // An empty stream, not an empty body: Fastify's HEAD route would set Content-Length: 0 for that.
    return reply
      .code(200)
      .headers({ ...headers, 'content-length': String(info.sizeBytes) })
      .send(Readable.from([]));
  }

  const wanted = rangeOf(request, etag, lastModified, row.sizeBytes);
  if (wanted.kind === 'unsatisfiable') return sendUnsatisfiable(reply, row.sizeBytes);
  let object: MediaObject;
  try {
    object = await files.openFile(row, wanted.kind === 'range' ? { start: wanted.start, end: wanted.end } : undefined);
  } catch (error: unknown) {
    if (error instanceof MediaRangeNotSatisfiableError) return sendUnsatisfiable(reply, error.sizeBytes);
    throw error;
  }
  const { body } = object;
  reply.raw.once('close', () => body.destroy());
  if (object.range) {
    const { start, end } = object.range;
    reply.code(206).headers({
      ...headers,
      'content-range': `bytes ${start}-${end}/${object.sizeBytes}`,
      'content-length': String(end - start + 1),
    });
  } else {
    reply.code(200).headers({ ...headers, 'content-length': String(object.sizeBytes) });
  }
  return reply.send(body);
}

/** Type, disposition and the headers that keep a browser from treating the file as anything else. */
function representationHeaders(row: MediaRow): Record<string, string> {
  const mime = row.mimeType;
  const inline = INLINE_TYPES.has(mime) || INLINE_PREFIXES.some((prefix) => mime.startsWith(prefix));
  return {
    'content-type': mime.startsWith('text/') ? `${mime}; charset=utf-8` : mime,
    'content-disposition': contentDispositionFor(row.filename, inline ? 'inline' : 'attachment'),
    'x-content-type-options': 'nosniff',
    // Files are meant to be embedded by other sites (`<img src>` on the website).
    'cross-origin-resource-policy': 'cross-origin',
    // An SVG or a PDF shown inline can carry script; attachments are sandboxed too should a browser
    // render one. The sandbox gives the file an opaque origin: nothing in it can reach this site's.
    ...(mime === SVG || mime === PDF || !inline ? { 'content-security-policy': MEDIA_FILE_SANDBOX_CSP } : {}),
  };
}

function sendUnsatisfiable(reply: FastifyReply, sizeBytes: number): FastifyReply {
  return reply
    .code(416)
    .headers({ 'content-range': `bytes */${sizeBytes}`, 'x-content-type-options': 'nosniff' })
    .send();
}

/** If-None-Match (weak comparison, `*` included) wins over If-Modified-Since (RFC 9110 §13.1.3, §13.2.2). */
function isNotModified(request: FastifyRequest, etag: string, uploadedAt: Date): boolean {
  const noneMatch = request.headers['if-none-match'];
  if (noneMatch !== undefined) {
    return noneMatch.split(',').some((tag) => {
      const trimmed = tag.trim();
      return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
    });
  }
  const modifiedSince = request.headers['if-modified-since'];
  if (modifiedSince === undefined) return false;
  const since = Date.parse(modifiedSince);
  // HTTP dates have whole seconds: compare with the upload time cut to its second.
  return !Number.isNaN(since) && Math.floor(uploadedAt.getTime() / 1000) * 1000 <= since;
}

/**
 * The range a GET asks for. One `bytes=` range is served; several ranges, other units and malformed
 * values are ignored (the whole file is sent), as RFC 9110 §14.2 allows; so is a Range whose
 * If-Range validator no longer matches.
 */
function rangeOf(request: FastifyRequest, etag: string, lastModified: string, sizeBytes: number): RangeRequest {
  const header = request.headers.range;
  if (header === undefined) return { kind: 'whole' };
  const raw = request.headers['if-range'];
  const ifRange = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (ifRange !== undefined && ifRange !== etag && ifRange !== lastModified) return { kind: 'whole' };
  return parseRange(header, sizeBytes);
}

/** Parses a single `bytes=first-last`, `bytes=first-` or `bytes=-suffix` against a file size. */
export function parseRange(header: string, sizeBytes: number): RangeRequest {
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || sizeBytes === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', start: Math.max(0, sizeBytes - suffix), end: sizeBytes - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= sizeBytes) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end: last === '' ? sizeBytes - 1 : Math.min(Number(last), sizeBytes - 1) };
}
