/**
 * The error catalog: every code the API can answer with, its HTTP status and default message.
 * Codes and statuses follow spec/decisions.md §2; `docs/errors.md` documents each one (a test keeps
 * the two in step).
 */
/**
 * How to bring a client's schema up to date, named by SCHEMA_NOT_FOUND and SCHEMA_HASH_MISMATCH:
 * the CLI, or its HTTP equivalent for clients without it.
 */
export const SCHEMA_SYNC_HINT =
  'run `cms schema sync` (or send your resolved schema with `PUT /api/v1/schema/sync`, whose answer carries the new `schemaHash`)';

export const ERROR_CATALOG = {
  UNAUTHORIZED: { status: 401, message: 'Authentication is required: send an API key or sign in.' },
  FORBIDDEN: { status: 403, message: 'You do not have permission to do this here.' },
  MFA_ENROLMENT_REQUIRED: {
    status: 403,
    message:
      'This server requires a second factor for your account: set one up with POST /api/v1/me/mfa/enrol (the Studio shows how), then retry.',
  },
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
  SCHEMA_NOT_FOUND: {
    status: 404,
    message: `No content type with this name in the schema registry: ${SCHEMA_SYNC_HINT}.`,
  },
  SCHEMA_HASH_MISMATCH: {
    status: 409,
    message: `Your schema is out of date: ${SCHEMA_SYNC_HINT}, then retry with the new X-CMS-Schema-Hash.`,
  },
  CONTENT_PATH_CONFLICT: { status: 409, message: 'Another document already uses this path and locale.' },
  CONFLICT: {
    status: 409,
    message: 'The document changed since you fetched it: fetch it again and reapply your change.',
  },
  RELEASE_STATE_CONFLICT: {
    status: 409,
    message:
      'The release is not in a state that allows this: read it again (GET /api/v1/releases/{id}) and check its status.',
  },
  CHANGES_CURSOR_EXPIRED: {
    status: 410,
    message:
      'This change feed cursor is older than the changes the server keeps: load all content again, then follow the feed from `details.cursor` (where the feed ended when this answer was made).',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    message: 'The request was not received in time: send the headers and the whole body without pausing.',
  },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is larger than allowed.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message: 'This Content-Type is not accepted here: send JSON bodies as application/json.',
  },
  IMAGE_NOT_TRANSFORMABLE: {
    status: 422,
    message:
      'This asset is not an image the server can transform (JPEG, PNG, WebP, AVIF, GIF or TIFF): link its url instead.',
  },
  IMAGE_TOO_LARGE: {
    status: 422,
    message:
      'The original image has more pixels than this project transforms: upload a smaller image or raise the project setting mediaImageMaxInputPixels.',
  },
  RATE_LIMITED: { status: 429, message: 'Too many attempts: wait and retry.' },
  HEADERS_TOO_LARGE: {
    status: 431,
    message: 'The request headers are larger than 16 KiB: send fewer or shorter headers (cookies included).',
  },
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
