/**
 * Which error codes an operation can answer, derived from what its action declares (target rule,
 * auth, CSRF, permissions, path parameters, query, body, the schema hash header), plus the codes
 * only its service knows about (stale revisions, path conflicts, rate limits), which the route
 * contract lists in `errors`.
 * OpenAPI lists exactly these per operation.
 */
import { ERROR_CATALOG, type ErrorCode } from '@cms/core';
import type { AnyAction } from './define-action.js';

/** Codes any request can get, before or after routing: the HTTP layer, shutdown, bugs. */
const EVERY_REQUEST: readonly ErrorCode[] = [
  'INVALID_INPUT', // malformed HTTP (two Content-Length headers, an unknown method)
  'REQUEST_TIMEOUT',
  'HEADERS_TOO_LARGE',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
];

/** The error codes `action` can answer, in catalog order. */
export function errorCodesOf(action: AnyAction): ErrorCode[] {
  const codes = new Set<ErrorCode>(EVERY_REQUEST);
  const request = action.request ?? {};
  const needsTarget = action.target === 'environment' || action.target === 'project';
  if (needsTarget) codes.add('TARGET_REQUIRED');
  if (action.target !== 'none') codes.add('PROJECT_NOT_FOUND');
  if (action.target === 'environment' || action.target === 'optional') codes.add('ENVIRONMENT_NOT_FOUND');
  if ((action.auth ?? 'required') !== 'public') {
    codes.add('UNAUTHORIZED');
    codes.add('FORBIDDEN');
    if (action.method !== 'GET' && action.csrf !== false) codes.add('CSRF_INVALID');
  }
  if (action.target !== 'none' && action.auth === 'public') codes.add('FORBIDDEN');
  if (action.response.envelope !== 'raw' || request.query) codes.add('INVALID_QUERY_PARAM');
  if (request.params || action.path.includes('{')) codes.add('NOT_FOUND');
  if (request.body || request.multipart) {
    codes.add('PAYLOAD_TOO_LARGE');
    codes.add('UNSUPPORTED_MEDIA_TYPE');
  }
  const headers = Object.keys((request.headers?.properties ?? {}) as Record<string, unknown>);
  if (headers.includes('x-cms-schema-hash')) {
    codes.add('SCHEMA_HASH_MISMATCH');
    codes.add('SCHEMA_NOT_FOUND');
  }
  for (const code of action.errors ?? []) codes.add(code);
  return (Object.keys(ERROR_CATALOG) as ErrorCode[]).filter((code) => codes.has(code));
}

/** Codes grouped by HTTP status, for OpenAPI's `responses`. */
export function errorCodesByStatus(action: AnyAction): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(action)) {
    const status = ERROR_CATALOG[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}
