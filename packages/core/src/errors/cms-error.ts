import { ERROR_CATALOG, type ErrorCode } from './error-codes.js';

/** Error details: field-level validation errors go under `fields`, keyed by JSON path. */
export type ErrorDetails = Record<string, unknown> & { fields?: Record<string, string> };

/**
 * The one error type of the service. Throw it anywhere below HTTP; only the error envelope
 * turns it into a response.
 */
export class CmsError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetails;
  /** Extra response headers, such as Retry-After for RATE_LIMITED. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message?: string, details: ErrorDetails = {}, headers: Record<string, string> = {}) {
    super(message ?? ERROR_CATALOG[code].message);
    this.name = 'CmsError';
    this.code = code;
    this.status = ERROR_CATALOG[code].status;
    this.details = details;
    this.headers = headers;
  }
}

/** Narrows an unknown thrown value to a CmsError. */
export function isCmsError(error: unknown): error is CmsError {
  return error instanceof CmsError;
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
