/**
 * What a call can throw: `CmsError` for every answer that is not 2xx (code from the server's
 * catalog) and for a 2xx answer that is not the API's JSON (`INVALID_RESPONSE`, the SDK's own code),
 * `CmsNetworkError` when no answer came, `CmsTimeoutError` when the answer took longer
 * than `timeoutMs`. A caller's own AbortSignal rejects with the signal's reason, as fetch does.
 */
import type { ErrorCode } from '@cms/core';
import { CmsError, type ErrorDetails } from '@cms/core/errors';

/**
 * A non-2xx answer of the API, read from its error envelope, or a 2xx answer that is not the API's:
 * core's one error class, so the server, the SDK, the CLI and the Studio share it.
 */
export { CmsError, type CmsErrorCode, isCmsError } from '@cms/core/errors';

/** Error details: field-level validation errors go under `fields`, keyed by JSON path. */
export type CmsErrorDetails = ErrorDetails;

/** No answer: DNS, refused or reset connection, TLS, CORS, offline. Nothing is known of the server side. */
export class CmsNetworkError extends Error {
  override readonly name = 'CmsNetworkError';
  constructor(
    message: string,
    readonly method: string,
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** No answer within `timeoutMs`: the request was aborted; a write may or may not have happened. */
export class CmsTimeoutError extends Error {
  override readonly name = 'CmsTimeoutError';
  constructor(
    readonly timeoutMs: number,
    readonly method: string,
    readonly url: string,
  ) {
    super(`${method} ${url} got no answer within ${timeoutMs} ms: raise timeoutMs or check the server.`);
  }
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'INVALID_INPUT',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

interface EnvelopeError {
  code: ErrorCode;
  message: string;
  details?: ErrorDetails;
  requestId?: string;
}

function envelopeError(body: unknown): EnvelopeError | null {
  if (typeof body !== 'object' || body === null) return null;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return null;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  return error as EnvelopeError;
}

/** True when the body is the API's error envelope (not a proxy's page). */
export function hasErrorEnvelope(body: unknown): boolean {
  return envelopeError(body) !== null;
}

/** Seconds of a `Retry-After` header (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Builds the error of a non-2xx answer; bodies that are not the envelope get a code from the status. */
export function errorFromResponse(response: Response, body: unknown, text: string): CmsError {
  const envelope = envelopeError(body);
  const requestId = envelope?.requestId ?? response.headers.get('x-request-id');
  const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
  if (envelope) {
    return new CmsError({
      code: envelope.code,
      status: response.status,
      message: envelope.message,
      details: envelope.details ?? {},
      requestId,
      retryAfterSeconds,
    });
  }
  const code = CODE_BY_STATUS[response.status] ?? 'INTERNAL_ERROR';
  const snippet = text.slice(0, 200);
  return new CmsError({
    code,
    status: response.status,
    message: `HTTP ${response.status} without an API error body${snippet ? `: ${snippet}` : ''}`,
    details: { body: snippet },
    requestId,
    retryAfterSeconds,
  });
}

/**
 * A 2xx answer whose body is not the API's JSON envelope: HTML from a proxy or a web server at
 * `baseUrl`, an empty body, or JSON without `data`. Never retried: a write may have happened.
 */
export function invalidResponse(response: Response, method: string, url: string, text: string): CmsError {
  const contentType = response.headers.get('content-type');
  const snippet = text.slice(0, 200);
  return new CmsError({
    code: 'INVALID_RESPONSE',
    status: response.status,
    message:
      `${method} ${url} answered ${response.status} with ${describeBody(contentType, text)}, not the API's JSON ` +
      'envelope: check that baseUrl is the CMS server itself and that no proxy in between answers in its place ' +
      '(a login page, a rewrite to the site, a cache).',
    details: { status: response.status, contentType, body: snippet },
    requestId: response.headers.get('x-request-id'),
  });
}

function describeBody(contentType: string | null, text: string): string {
  if (text.trim() === '') return 'an empty body';
  if (!(contentType ?? '').includes('json')) return `a ${contentType ?? 'body without Content-Type'} body`;
  try {
    JSON.parse(text);
    return 'JSON that is not the envelope `{ "data": … }`';
  } catch {
    return 'malformed JSON';
  }
}
