import { ERROR_CATALOG, type ErrorCode } from './error-codes.js';

/** Error details: field-level validation errors go under `fields`, keyed by JSON path. */
export type ErrorDetails = Record<string, unknown> & { fields?: Record<string, string> };

/**
 * Codes only a client gives, never the server: `INVALID_RESPONSE` for a 2xx answer that is not the
 * API's JSON (a proxy's page), `NETWORK_ERROR` when an interface shows that no answer came,
 * `CLIENT_ERROR` for a failure in the interface itself. Not in the catalog: no route answers them.
 */
export type ClientErrorCode = 'INVALID_RESPONSE' | 'NETWORK_ERROR' | 'CLIENT_ERROR';

/** Every code a `CmsError` can carry: the server's catalog and the clients' own. */
export type CmsErrorCode = ErrorCode | ClientErrorCode;

/** An error as a client reads it from an answer (or builds it to show): status and request id as received. */
export interface CmsErrorInit {
  code: CmsErrorCode;
  /** The answer's HTTP status; 0 when no answer came. */
  status: number;
  message: string;
  details?: ErrorDetails;
  /** The request id the server logged (`X-Request-Id`). */
  requestId?: string | null;
  /** Seconds the server asked to wait (`Retry-After`), when it said. */
  retryAfterSeconds?: number | null;
}

/**
 * The one error type of the error envelope, on both sides of the wire. The server throws it
 * anywhere below HTTP (`new CmsError('CONFLICT', message, details)`) and only the error envelope
 * turns it into a response; the SDK, the CLI and the Studio raise it for an envelope they receive
 * (`new CmsError({ code, status, message, details, requestId })`).
 */
export class CmsError extends Error {
  override readonly name = 'CmsError';
  readonly code: CmsErrorCode;
  readonly status: number;
  readonly details: ErrorDetails;
  /** Extra response headers the server sends, such as Retry-After for RATE_LIMITED. */
  readonly headers: Record<string, string>;
  /** The request id the server logged (`X-Request-Id`): quote it when reporting a problem. */
  readonly requestId: string | null;
  /** Seconds the server asked to wait (`Retry-After`), when it said. */
  readonly retryAfterSeconds: number | null;

  constructor(init: CmsErrorInit);
  constructor(code: ErrorCode, message?: string, details?: ErrorDetails, headers?: Record<string, string>);
  constructor(
    codeOrInit: ErrorCode | CmsErrorInit,
    message?: string,
    details: ErrorDetails = {},
    headers: Record<string, string> = {},
  ) {
    if (typeof codeOrInit === 'object') {
      super(codeOrInit.message);
      this.code = codeOrInit.code;
      this.status = codeOrInit.status;
      this.details = codeOrInit.details ?? {};
      this.headers = {};
      this.requestId = codeOrInit.requestId ?? null;
      this.retryAfterSeconds = codeOrInit.retryAfterSeconds ?? null;
      return;
    }
    super(message ?? ERROR_CATALOG[codeOrInit].message);
    this.code = codeOrInit;
    this.status = ERROR_CATALOG[codeOrInit].status;
    this.details = details;
    this.headers = headers;
    this.requestId = null;
    this.retryAfterSeconds = null;
  }
}

/** Narrows an unknown thrown value to a CmsError, optionally of one code. */
export function isCmsError(error: unknown, code?: CmsErrorCode): error is CmsError {
  return error instanceof CmsError && (code === undefined || error.code === code);
}

/**
 * The code as the server answers it in an envelope: a catalog code. A client's own code (never
 * thrown on the server) reads as INTERNAL_ERROR.
 */
export function catalogCode(error: CmsError): ErrorCode {
  return error.code in ERROR_CATALOG ? (error.code as ErrorCode) : 'INTERNAL_ERROR';
}

/** A validation failure with field-level messages keyed by JSON path. */
export function invalidInput(fields: Record<string, string>, message?: string): CmsError {
  return new CmsError('INVALID_INPUT', message ?? describeFields(fields), { fields });
}

/** A query parameter failure with field-level messages keyed by parameter name. */
export function invalidQueryParam(fields: Record<string, string>, message?: string): CmsError {
  return new CmsError('INVALID_QUERY_PARAM', message ?? describeFields(fields), { fields });
}

/** A missing resource, named in the message. */
export function notFound(what: string): CmsError {
  return new CmsError('NOT_FOUND', `${what} not found.`);
}

function describeFields(fields: Record<string, string>): string {
  const entries = Object.entries(fields);
  const [first] = entries;
  if (!first) return 'The input is invalid.';
  const more = entries.length > 1 ? ` (and ${entries.length - 1} more)` : '';
  return `${first[0]}: ${first[1]}${more}`;
}
