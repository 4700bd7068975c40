/**
 * The error catalog: every code the API can answer with, its HTTP status and default message.
 * Codes and statuses follow spec/decisions.md §2; `docs/errors.md` documents each one (a test keeps
 * the two in step).
 */
export const ERROR_CATALOG = {
  UNAUTHORIZED: { status: 401, message: 'Authentication is required: send an API key or sign in.' },
  FORBIDDEN: { status: 403, message: 'You do not have permission to do this here.' },
  CSRF_INVALID: {
    status: 403,
    message: 'Missing or wrong X-CMS-CSRF-Token header: send the value of the cms_csrf cookie.',
  },
  TARGET_REQUIRED: {
    status: 400,
    message: 'This route needs the X-CMS-Project and X-CMS-Environment headers.',
  },
  PROJECT_NOT_FOUND: { status: 404, message: 'No project with this slug.' },
  ENVIRONMENT_NOT_FOUND: { status: 404, message: 'No environment with this name in the project.' },
  INVALID_INPUT: { status: 400, message: 'The request body is invalid.' },
  INVALID_QUERY_PARAM: { status: 400, message: 'A query parameter is invalid.' },
  NOT_FOUND: { status: 404, message: 'Not found.' },
  SCHEMA_NOT_FOUND: { status: 404, message: 'No content type with this name in the schema registry.' },
  SCHEMA_HASH_MISMATCH: {
    status: 409,
    message: 'Your schema is out of date: run `cms schema sync` and retry with the new X-CMS-Schema-Hash.',
  },
  CONTENT_PATH_CONFLICT: { status: 409, message: 'Another document already uses this path and locale.' },
  CONFLICT: {
    status: 409,
    message: 'The document changed since you fetched it: fetch it again and reapply your change.',
  },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is larger than allowed.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported Content-Type for this endpoint.' },
  RATE_LIMITED: { status: 429, message: 'Too many attempts: wait and retry.' },
  PREVIEW_TOKEN_UNAVAILABLE: {
    status: 503,
    message: 'Preview tokens are not configured: set CMS_PREVIEW_TOKEN_SECRET on the server.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    message: 'The server is not ready: it is starting, shutting down, or its database does not answer.',
  },
  INTERNAL_ERROR: { status: 500, message: 'Something went wrong on our side. Please report it with the request id.' },
} as const satisfies Record<string, { status: number; message: string }>;

/** Every error code the API can answer with. */
export type ErrorCode = keyof typeof ERROR_CATALOG;

/** All codes, in catalog order. */
export const ERROR_CODES = Object.keys(ERROR_CATALOG) as ErrorCode[];
