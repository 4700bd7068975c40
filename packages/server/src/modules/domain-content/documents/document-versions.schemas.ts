/** JSON Schemas of the version history endpoints (interface.md "Version entry"). */
import { limitQuerySchema, OFFSET_QUERY_SCHEMA, ORDER_QUERY_SCHEMA } from '../../../actions/query-schemas.js';

/** Default and largest page of the versions list (interface.md "Limits"). */
export const VERSIONS_PAGE_DEFAULT = 20;
export const VERSIONS_PAGE_MAX = 100;

const timestamp = { type: 'string', format: 'date-time' } as const;

/** A version entry of the list. */
export const versionEntrySchema = {
  type: 'object',
  required: ['version', 'publishedAt', 'publishedBy', 'changeSummary'],
  properties: {
    version: { type: 'integer' },
    publishedAt: timestamp,
    publishedBy: { type: 'string' },
    changeSummary: { type: ['string', 'null'] },
  },
} as const;

/** One version with its snapshot. */
export const versionSnapshotSchema = {
  type: 'object',
  required: ['documentId', 'version', 'publishedAt', 'publishedBy', 'changeSummary', 'frontmatter', 'body'],
  properties: {
    documentId: { type: 'string', format: 'uuid' },
    ...versionEntrySchema.properties,
    frontmatter: { type: 'object', additionalProperties: true },
    body: { type: 'string' },
  },
} as const;

/** `GET /content/{documentId}/versions` query: newest first unless `order=asc` (by version number). */
export const versionsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: limitQuerySchema(VERSIONS_PAGE_DEFAULT, VERSIONS_PAGE_MAX),
    offset: OFFSET_QUERY_SCHEMA,
    order: ORDER_QUERY_SCHEMA,
  },
} as const;

/** Path of `/content/{documentId}/versions/{version}` routes. */
export const versionParamsSchema = {
  type: 'object',
  required: ['documentId', 'version'],
  additionalProperties: false,
  properties: { documentId: { type: 'string', format: 'uuid' }, version: { type: 'integer', minimum: 1 } },
} as const;

/** `POST /content/{documentId}/versions/{version}/restore` answer. */
export const restoreVersionResultSchema = {
  type: 'object',
  required: [
    'documentId',
    'version',
    'publishedVersion',
    'draftRevision',
    'hasUnpublishedChanges',
    'restoredFromVersion',
  ],
  properties: {
    documentId: { type: 'string', format: 'uuid' },
    version: { type: 'integer' },
    publishedVersion: { type: ['integer', 'null'] },
    draftRevision: { type: 'integer' },
    hasUnpublishedChanges: { type: 'boolean' },
    restoredFromVersion: { type: 'integer' },
  },
} as const;
