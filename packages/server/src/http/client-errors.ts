/**
 * Answers for requests Node refuses before the framework sees them (malformed HTTP, headers over
 * 16 KiB, the request or header timeouts): the error envelope, written on the socket, then the
 * connection closes. docs/api.md "Answers from the HTTP layer" lists them; OpenAPI does too.
 */
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { CmsError } from '@cms/core';
import type { FastifyBaseLogger } from 'fastify';
import { errorEnvelope } from './error-envelope.js';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** The CmsError for a Node `clientError`, or null when there is nobody to answer (reset by the peer). */
export function clientErrorToCmsError(error: NodeJS.ErrnoException): CmsError | null {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return null;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new CmsError('REQUEST_TIMEOUT');
    case 'HPE_HEADER_OVERFLOW':
      return new CmsError('HEADERS_TOO_LARGE');
    case 'HPE_INVALID_METHOD':
      return new CmsError('INVALID_INPUT', 'Unknown HTTP method: use GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS.');
    default:
      return new CmsError(
        'INVALID_INPUT',
        `Malformed HTTP request (${error.code ?? 'parse error'}): send one valid HTTP/1.1 request (one Content-Length, header names of letters, digits and dashes).`,
      );
  }
}

/** Creates the `clientErrorHandler` of the app: writes the envelope unless a response has begun. */
export function createClientErrorHandler(log: () => FastifyBaseLogger) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    const cmsError = socket.destroyed ? null : clientErrorToCmsError(error);
    if (!cmsError) {
      socket.destroy();
      return;
    }
    const requestId = randomUUID();
    log().info({ requestId, code: cmsError.code, reason: error.code }, 'refused a malformed or slow request');
    // A response already on its way (headers written) must not be corrupted by a second one.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const body = JSON.stringify(errorEnvelope(cmsError, requestId));
      socket.write(
        `HTTP/1.1 ${cmsError.status} ${REASONS[cmsError.status] ?? 'Error'}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\n` +
          'Connection: close\r\n\r\n' +
          body,
      );
    }
    socket.end();
    socket.destroySoon?.();
  };
}
