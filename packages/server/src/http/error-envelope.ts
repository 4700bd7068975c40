import { CmsError, catalogCode, type ErrorCode, type ErrorEnvelope, isCmsError } from '@cms/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { urlForLog } from './log-url.js';
import { issueMessage, issuePath, type ValidationIssue } from './validation-messages.js';

/** Builds the error envelope body (interface.md "Response envelopes"). */
export function errorEnvelope(error: CmsError, requestId: string): ErrorEnvelope {
  return {
    error: {
      status: 'error',
      code: catalogCode(error),
      message: error.message,
      statusCode: error.status,
      details: error.details,
      requestId,
      timestamp: new Date().toISOString(),
    },
  };
}

/** Sends a CmsError as the envelope with its status and headers. */
export function sendError(reply: FastifyReply, error: CmsError): FastifyReply {
  return reply
    .code(error.status)
    .headers(error.headers)
    .header('content-type', 'application/json; charset=utf-8')
    .send(JSON.stringify(errorEnvelope(error, String(reply.request.id))));
}

const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_REQ_FILE_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_PARTS_LIMIT: 'PAYLOAD_TOO_LARGE',
  FST_FILES_LIMIT: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_INPUT',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_INPUT',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_INPUT',
};

const VALIDATION_CONTEXT_CODES: Record<string, ErrorCode> = {
  querystring: 'INVALID_QUERY_PARAM',
  body: 'INVALID_INPUT',
  params: 'INVALID_INPUT',
  headers: 'INVALID_INPUT',
};

/** Turns anything thrown into a CmsError; what is not one and not a client error is a bug. */
export function toCmsError(error: unknown, request?: FastifyRequest): CmsError | null {
  if (isCmsError(error)) return error;
  const fastifyError = error as Partial<FastifyError> & { validationContext?: string };
  if (fastifyError.validation) {
    const context = fastifyError.validationContext ?? 'body';
    const fields: Record<string, string> = {};
    for (const issue of fastifyError.validation as ValidationIssue[]) {
      fields[issuePath(context, issue)] ??= issueMessage(context, issue);
    }
    const code = VALIDATION_CONTEXT_CODES[context] ?? 'INVALID_INPUT';
    const [first] = Object.entries(fields);
    return new CmsError(code, first ? `${first[0]} ${first[1]}.` : undefined, { fields });
  }
  const mapped = fastifyError.code ? FRAMEWORK_CODES[fastifyError.code] : undefined;
  if (mapped === 'UNSUPPORTED_MEDIA_TYPE') return unsupportedMediaType(request);
  if (mapped) return new CmsError(mapped, mapped === 'INVALID_INPUT' ? malformedBodyMessage(error) : undefined);
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return new CmsError('INVALID_INPUT', malformedBodyMessage(error));
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return new CmsError('PAYLOAD_TOO_LARGE');
    if (status === 415) return unsupportedMediaType(request);
    if (status === 404) return new CmsError('NOT_FOUND');
    return new CmsError('INVALID_INPUT', fastifyError.message);
  }
  return null;
}

/** 415 naming the Content-Type the route takes (its action declares a multipart or JSON body). */
function unsupportedMediaType(request: FastifyRequest | undefined): CmsError {
  const action = (request?.routeOptions.config as { action?: { request?: { multipart?: unknown } } } | undefined)
    ?.action;
  const expected = action?.request?.multipart ? 'multipart/form-data' : 'application/json';
  const sent = request?.headers['content-type'];
  return new CmsError(
    'UNSUPPORTED_MEDIA_TYPE',
    `${sent ? `Content-Type ${sent} is not accepted here` : 'The body has no Content-Type'}: send it as ${expected} (Content-Type: ${expected}).`,
    { expected: [expected] },
  );
}

function malformedBodyMessage(error: unknown): string {
  const detail = error instanceof Error ? error.message : '';
  return `The request body is not valid JSON${detail ? ` (${detail})` : ''}: send one JSON value with Content-Type: application/json.`;
}

/** The error at the end of a `cause` chain: the database's or the network's own words. */
function rootCause(error: Error): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH; depth += 1) {
    const next = (current as { cause?: unknown }).cause;
    if (next === undefined || next === null) break;
    current = next;
  }
  return current;
}

/** How far rootCause follows `cause` (a cycle must not hang the error handler). */
const MAX_CAUSE_DEPTH = 10;

/** Registers the one place where errors become envelopes, and the NOT_FOUND fallback. */
export function registerErrorEnvelope(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const cmsError = toCmsError(error, request);
    if (cmsError) {
      // A 503 tells the client to retry; the operator learns why (conflicts exhausted, database down).
      if (cmsError.status === 503) {
        request.log.warn({ code: cmsError.code, err: rootCause(cmsError), url: urlForLog(request) }, cmsError.message);
      }
      return sendError(reply, cmsError);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, new CmsError('INTERNAL_ERROR'));
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new CmsError('NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}.`)),
  );
}
