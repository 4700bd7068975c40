/**
 * JSON Schemas of the content read endpoints (interface.md "Content endpoints", "List query
 * parameters", "Variant entry"). Query schemas reject unknown parameters (decisions.md §3), and
 * booleans accept only `true` and `false`.
 */
import { FIELD_NAME_PATTERN, MAX_FIELD_DEPTH } from '@cms/core';
import { OFFSET_QUERY_SCHEMA } from '../../../actions/query-schemas.js';
import { MAX_LOCALE_LENGTH, MAX_PATH_LENGTH } from '../documents/path-rules.js';

/** Page size default and maximum (interface.md "Limits"). */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Most `resolve` parameters one request may send. */
export const MAX_RESOLVE_PARAMS = 50;
/** Most `type` parameters of one overview request. */
export const MAX_OVERVIEW_TYPES = 200;
/** Longest `slug` filter value. */
const MAX_SLUG_LENGTH = 512;

const uuid = { type: 'string', format: 'uuid' } as const;
const timestamp = { type: 'string', format: 'date-time' } as const;
const flag = { type: 'boolean' } as const;
const name = FIELD_NAME_PATTERN.source.slice(1, -1);

/** A locale filter: a BCP 47 tag, canonicalised by the service, or `__cms_default__`. */
const locale = { type: 'string', minLength: 1, maxLength: MAX_LOCALE_LENGTH } as const;

/** A reference field in dot notation (`author`, `seo.author`), at most as deep as fields nest. */
const resolve = {
  type: 'array',
  maxItems: MAX_RESOLVE_PARAMS,
  items: { type: 'string', pattern: `^${name}(\\.${name}){0,${MAX_FIELD_DEPTH - 1}}$` },
} as const;

/** Query of `GET /content/{documentId}`. */
export const getDocumentQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { locale, resolve, draft: { ...flag, default: false } },
} as const;

/** Query of `GET /content`. `order` has no static default: it depends on `sort`. */
export const listDocumentsQuerySchema = {
  type: 'object',
  required: ['type'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', minLength: 1, maxLength: 64 },
    locale,
    path: { type: 'string', minLength: 1, maxLength: MAX_PATH_LENGTH },
    slug: { type: 'string', minLength: 1, maxLength: MAX_SLUG_LENGTH },
    published: flag,
    isDeleted: { ...flag, default: false },
    hasUnpublishedChanges: flag,
    draft: { ...flag, default: false },
    resolve,
    limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    offset: OFFSET_QUERY_SCHEMA,
    sort: { type: 'string', enum: ['createdAt', 'updatedAt', 'path'], default: 'createdAt' },
    order: { type: 'string', enum: ['asc', 'desc'] },
  },
} as const;

/** Query of `GET /content/overview`: `type` repeatable, all types of the schema when omitted. */
export const overviewQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    type: { type: 'array', maxItems: MAX_OVERVIEW_TYPES, items: { type: 'string', minLength: 1, maxLength: 64 } },
  },
} as const;

/** `X-CMS-Locale`: empty counts as absent; the service checks the tag itself. */
export const localeHeaderSchema = {
  type: 'object',
  properties: { 'x-cms-locale': { type: 'string', maxLength: MAX_LOCALE_LENGTH } },
} as const;

/** Response of `GET /content/overview`. */
export const overviewSchema = {
  type: 'object',
  required: ['counts'],
  properties: {
    counts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'total', 'published', 'draft', 'deleted'],
        properties: {
          type: { type: 'string' },
          total: { type: 'integer' },
          published: { type: 'integer' },
          draft: { type: 'integer' },
          deleted: { type: 'integer' },
        },
      },
    },
  },
} as const;

/** One variant entry (interface.md "Variant entry"). */
export const variantSchema = {
  type: 'object',
  required: ['documentId', 'locale', 'path', 'version', 'publishedVersion', 'hasUnpublishedChanges', 'updatedAt'],
  properties: {
    documentId: uuid,
    locale: { type: 'string' },
    path: { type: 'string' },
    version: { type: 'integer' },
    publishedVersion: { type: ['integer', 'null'] },
    hasUnpublishedChanges: { type: 'boolean' },
    updatedAt: timestamp,
  },
} as const;

/** Response of `GET /content/{documentId}/variants`. */
export const variantsSchema = { type: 'array', items: variantSchema } as const;

/** Longest preview URL accepted. */
export const MAX_PREVIEW_URL_LENGTH = 2048;

/** Body of `POST /content/{documentId}/preview-token` (the body itself may be omitted). */
export const previewTokenBodySchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { previewUrl: { type: 'string', minLength: 1, maxLength: MAX_PREVIEW_URL_LENGTH } },
} as const;

/** Response of `POST /content/{documentId}/preview-token`. */
export const previewTokenSchema = {
  type: 'object',
  required: ['token', 'expiresAt'],
  properties: { token: { type: 'string' }, expiresAt: timestamp },
} as const;
