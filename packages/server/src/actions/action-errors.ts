/**
 * Which error codes an operation can answer: those of the request steps that apply to it (derived
 * from what its action declares: target rule, auth, CSRF, kind, parameters, body, the schema hash
 * header), plus the codes only its service knows about (stale revisions, state conflicts, an image
 * too large), which the route contract lists in `errors`.
 * OpenAPI lists exactly these per operation. The declared-errors test (test/platform/declared-errors)
 * walks each handler's calls and each step's source with the TypeScript compiler API and fails when
 * a code can be raised that is not listed here (docs/architecture.md "Declared errors").
 */
import { ERROR_CATALOG, type ErrorCode } from '@cms/core';
import { MFA_ENROLMENT_ACTIONS } from '../http/authenticate.js';
import { isRateLimitedAction } from '../http/rate-limit.js';
import type { AnyAction } from './define-action.js';

/** A step requests take before (or around) their handler: what it can answer, and for which action. */
export interface RequestStep {
  /** Where the step starts, under `src/` (the declared-errors test walks from there). */
  source: readonly { file: string; function: string }[];
  /** Every code the step can raise. */
  codes: readonly ErrorCode[];
  /** The codes it can raise for this action. */
  answers(action: AnyAction): readonly ErrorCode[];
}

const needsTarget = (action: AnyAction) => action.target === 'environment' || action.target === 'project';
const takesCredentials = (action: AnyAction) => (action.auth ?? 'required') !== 'public';
const when = (condition: boolean, codes: readonly ErrorCode[]): readonly ErrorCode[] => (condition ? codes : []);

/** The request steps (docs/architecture.md "Request lifecycle"), in the order they run. */
export const REQUEST_STEPS: readonly RequestStep[] = [
  {
    // Node's parser (malformed HTTP), timeouts, shutdown, a database that does not answer, bugs.
    source: [
      { file: 'http/client-errors.ts', function: 'clientErrorToCmsError' },
      { file: 'storage/transient-retry.ts', function: 'retryTransient' },
    ],
    codes: ['INVALID_INPUT', 'REQUEST_TIMEOUT', 'HEADERS_TOO_LARGE', 'SERVICE_UNAVAILABLE', 'INTERNAL_ERROR'],
    answers: () => ['INVALID_INPUT', 'REQUEST_TIMEOUT', 'HEADERS_TOO_LARGE', 'SERVICE_UNAVAILABLE', 'INTERNAL_ERROR'],
  },
  {
    source: [{ file: 'http/rate-limit.ts', function: 'registerRateLimit' }],
    codes: ['RATE_LIMITED'],
    answers: (action) => when(isRateLimitedAction(action), ['RATE_LIMITED']),
  },
  {
    source: [{ file: 'http/target-guard.ts', function: 'targetGuard' }],
    codes: ['TARGET_REQUIRED'],
    answers: (action) => when(needsTarget(action), ['TARGET_REQUIRED']),
  },
  {
    // The strategies: API key, session (with its second-factor rule), preview token.
    source: [
      { file: 'http/authenticate.ts', function: 'createAuthenticate' },
      { file: 'modules/core-system/api-key-authenticator.ts', function: 'createApiKeyAuthenticator' },
      { file: 'modules/core-system/session-authenticator.ts', function: 'createSessionAuthenticator' },
      { file: 'modules/domain-content/reads/preview-auth-strategy.ts', function: 'createPreviewAuthStrategy' },
    ],
    codes: ['UNAUTHORIZED', 'FORBIDDEN', 'MFA_ENROLMENT_REQUIRED', 'PREVIEW_TOKEN_UNAVAILABLE'],
    answers: (action) =>
      when(takesCredentials(action), [
        'UNAUTHORIZED',
        'FORBIDDEN',
        'PREVIEW_TOKEN_UNAVAILABLE',
        ...when(!MFA_ENROLMENT_ACTIONS.has(action.id), ['MFA_ENROLMENT_REQUIRED']),
      ]),
  },
  {
    source: [{ file: 'http/csrf.ts', function: 'csrfCheck' }],
    codes: ['CSRF_INVALID'],
    answers: (action) =>
      when(takesCredentials(action) && action.method !== 'GET' && action.csrf !== false, ['CSRF_INVALID']),
  },
  {
    // Callers who could not see the target get FORBIDDEN, never a hint that it exists.
    source: [{ file: 'http/resolve-target.ts', function: 'createResolveTarget' }],
    codes: ['FORBIDDEN', 'PROJECT_NOT_FOUND', 'ENVIRONMENT_NOT_FOUND'],
    answers: (action) => [
      ...when(action.target !== 'none', ['FORBIDDEN', 'PROJECT_NOT_FOUND']),
      ...when(action.target === 'environment' || action.target === 'optional', ['ENVIRONMENT_NOT_FOUND']),
    ],
  },
  {
    source: [{ file: 'http/authorize.ts', function: 'authorize' }],
    codes: ['FORBIDDEN'],
    answers: (action) => when(action.permissions.length > 0 || (action.anyPermissions?.length ?? 0) > 0, ['FORBIDDEN']),
  },
  {
    // The input rules (NUL, lone surrogates, nesting, integer bounds, repeated parameters), then the schemas.
    source: [
      { file: 'http/input-rules.ts', function: 'checkRequestInput' },
      { file: 'actions/mount-actions.ts', function: 'repeatedQueryParamsError' },
    ],
    codes: ['INVALID_INPUT', 'INVALID_QUERY_PARAM'],
    // Every query string is read for NUL and lone surrogates, a raw route's too (which ignores unknown names).
    answers: () => ['INVALID_INPUT', 'INVALID_QUERY_PARAM'],
  },
];

/** The error codes `action` can answer, in catalog order. */
export function errorCodesOf(action: AnyAction): ErrorCode[] {
  const codes = new Set<ErrorCode>(REQUEST_STEPS.flatMap((step) => step.answers(action)));
  const request = action.request ?? {};
  // The router: no such resource (the service says so for ids it does not know).
  if (request.params || action.path.includes('{')) codes.add('NOT_FOUND');
  // The body parser: over the limit, or not the content type the route takes.
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
