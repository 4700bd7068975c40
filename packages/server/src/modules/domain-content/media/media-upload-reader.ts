import type { IncomingMessage } from 'node:http';
import { CmsError, isCmsError, UPLOAD_PART } from '@cms/core';
import multipart, { type Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MediaUploadSource } from './media.service.js';

/** The one multipart part an upload carries (interface.md "Media endpoints"). */
export { UPLOAD_PART };
/** Room for boundaries and part headers on top of the file itself, when checking Content-Length. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * Fastify setup of the upload route's own scope: multipart/form-data is its only content type, so
 * any other is UNSUPPORTED_MEDIA_TYPE before a byte of body is read, and no other route parses
 * multipart. Parts are parsed lazily, as the handler reads them.
 */
export function multipartUploadScope(maxUploadBytes: number) {
  return async (scope: FastifyInstance): Promise<void> => {
    scope.removeAllContentTypeParsers();
    await scope.register(multipart, {
      // Keep the name as sent (`../../a.png`): it is shown as is; sanitizeFilename makes the stored one.
      preservePath: true,
      limits: {
        // A second part is enough to refuse the request (INVALID_INPUT); a field is never needed whole.
        parts: 2,
        fieldSize: 1024,
        // The storage driver enforces the real limit (ByteLimit); busboy must not truncate before it.
        fileSize: maxUploadBytes + 1,
      },
    });
  };
}

/** An upload being read: the source handed to the service, and the way out when anything fails. */
export interface OpenedUpload {
  source: MediaUploadSource;
  /** Stops reading the request and returns the error to throw: malformed multipart becomes INVALID_INPUT. */
  failed(error: unknown): unknown;
}

/**
 * Opens the `file` part of an upload request without reading the file: its bytes are read as
 * the service streams them to storage.
 */
export async function openUpload(request: FastifyRequest, maxUploadBytes: number): Promise<OpenedUpload> {
  const budget = maxUploadBytes + MULTIPART_OVERHEAD_BYTES;
  // Errors raised by the multipart parser while the service reads the file: client input, not bugs.
  const parserErrors = new WeakSet<object>();
  const failed = (error: unknown) => {
    const aborted = request.raw.destroyed && !request.raw.readableEnded;
    discardRequestBody(request.raw, DISCARD_BUDGETS * budget);
    if (aborted && !isCmsError(error)) {
      return new CmsError('INVALID_INPUT', 'The client closed the connection before the upload was complete.');
    }
    return typeof error === 'object' && error !== null && parserErrors.has(error) ? asClientError(error) : error;
  };
  try {
    if (!request.isMultipart()) {
      throw new CmsError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Send the file as multipart/form-data with one part named "${UPLOAD_PART}".`,
      );
    }
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > budget) {
      throw new CmsError('PAYLOAD_TOO_LARGE', `The file is larger than the limit of ${maxUploadBytes} bytes.`, {
        maxBytes: maxUploadBytes,
      });
    }
    const parts = request.parts();
    const first = await nextPart(parts);
    if (!first) throw invalidUpload(`The request has no "${UPLOAD_PART}" part.`);
    if (first.type !== 'file' || first.fieldname !== UPLOAD_PART) {
      if (first.type === 'file') first.file.resume();
      throw invalidUpload(`Unexpected part "${first.fieldname}": send exactly one file part named "${UPLOAD_PART}".`);
    }
    first.file.on('error', (error: Error) => parserErrors.add(error));
    const source: MediaUploadSource = {
      filename: first.filename ?? '',
      body: first.file,
      async assertNoMoreParts() {
        const extra = await nextPart(parts);
        if (extra) {
          if (extra.type === 'file') extra.file.resume();
          throw invalidUpload(
            `Unexpected part "${extra.fieldname}": send exactly one file part named "${UPLOAD_PART}".`,
          );
        }
      },
    };
    return { source, failed };
  } catch (error: unknown) {
    throw failed(error);
  }
}

/** The next part, or null at the end; the parser's own failures become client errors. */
async function nextPart(parts: AsyncIterableIterator<Multipart>): Promise<Multipart | null> {
  try {
    const next = await parts.next();
    return next.done ? null : next.value;
  } catch (error: unknown) {
    throw asClientError(error);
  }
}

function invalidUpload(message: string): CmsError {
  return new CmsError('INVALID_INPUT', message, { fields: { [`body.${UPLOAD_PART}`]: message } });
}

/**
 * A multipart parser error as a client error: busboy's are plain Errors ("Unexpected end of form",
 * "Malformed part header") and become INVALID_INPUT; the plugin's carry an HTTP status (premature
 * close 400, limits 413) that the error envelope maps as it is.
 */
function asClientError(error: unknown): unknown {
  if (isCmsError(error) || !(error instanceof Error)) return error;
  if (typeof (error as { statusCode?: unknown }).statusCode === 'number') return error;
  return new CmsError('INVALID_INPUT', `The multipart body is malformed: ${error.message}.`);
}

/**
 * How many upload limits' worth of a refused body are read and dropped before the connection is cut.
 * The error answer waits on its audit entry (written before the response, docs/audit.md), and a
 * client on the same machine sends megabytes in that time: with one limit's worth, a file of twice
 * the limit was cut before its 413 could be read.
 */
const DISCARD_BUDGETS = 4;

/**
 * After a failure the rest of the body is read and dropped, so the client can finish sending and
 * read the error; past `budget` bytes the connection is cut instead.
 */
function discardRequestBody(raw: IncomingMessage, budget: number): void {
  if (raw.readableEnded || raw.destroyed) return;
  raw.unpipe();
  let left = budget;
  raw.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) raw.destroy();
  });
  raw.resume();
}
