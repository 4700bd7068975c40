import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, RawRequestDefaultExpression } from 'fastify';
import { urlForLog } from './log-url.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Keeps a caller's X-Request-Id when it is safe to log, else makes one. */
export function generateRequestId(request: RawRequestDefaultExpression): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * The ids of a request for its audit entry (docs/audit.md): the caller's `X-Request-Id` when the
 * request kept it as its id, and the server's own, a new UUID then (else the request's id, which the
 * server made). A caller's id correlates their logs with ours; it proves nothing, so it never stands
 * for the request in the audit log.
 */
export function requestIdsOf(request: FastifyRequest): { requestId: string; clientRequestId: string | null } {
  const id = String(request.id);
  const clientRequestId = request.headers['x-request-id'] === id ? id : null;
  return { requestId: clientRequestId === null ? id : randomUUID(), clientRequestId };
}

/** Returns the request id on every response and logs one line per request. */
export function registerRequestId(app: FastifyInstance): void {
  // Callback-style hooks: these run on every request, and cost less without a promise each.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        url: urlForLog(request),
        statusCode: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
        principal: request.ctx?.principal.type,
        // The server's own id when the caller chose `requestId`: what the request's audit entry records.
        ...(request.ctx?.clientRequestId ? { serverRequestId: request.ctx.requestId } : {}),
      },
      'request',
    );
    done();
  });
}
