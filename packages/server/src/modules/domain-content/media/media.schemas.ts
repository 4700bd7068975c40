import type { JsonSchema } from '../../../actions/define-action.js';
import { OFFSET_QUERY_SCHEMA } from '../../../actions/query-schemas.js';
import { MEDIA_PAGE_DEFAULT, MEDIA_PAGE_MAX } from './media-query.js';

/** Derived categories, the `category` filter values (interface.md "Media asset"). */
export const MEDIA_CATEGORIES = ['image', 'video', 'audio', 'document', 'archive', 'other'] as const;

/** A media asset (interface.md "Media asset", plus `environment` and `category`; docs/api.md "Media"). */
export const MEDIA_ASSET_SCHEMA: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'project',
    'environment',
    'filename',
    'mimeType',
    'category',
    'sizeBytes',
    'url',
    'uploadedBy',
    'uploadedAt',
  ],
  properties: {
    id: { type: 'string', format: 'uuid' },
    project: { type: 'string' },
    environment: { type: 'string' },
    filename: { type: 'string' },
    mimeType: { type: 'string' },
    category: { type: 'string', enum: [...MEDIA_CATEGORIES] },
    sizeBytes: { type: 'integer' },
    url: { type: 'string', format: 'uri' },
    uploadedBy: { type: 'string' },
    uploadedAt: { type: 'string', format: 'date-time' },
  },
};

/** `GET /api/v1/media` query (interface.md "Media list query"); unknown parameters are rejected. */
export const MEDIA_LIST_QUERY_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    q: { type: 'string', maxLength: 255 },
    category: { type: 'string', enum: [...MEDIA_CATEGORIES] },
    uploadedBy: { type: 'string', minLength: 1, maxLength: 255 },
    // The pattern gives a clear message for the shape; media-query.ts rejects impossible dates.
    uploadedFrom: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    uploadedTo: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    sort: { type: 'string', enum: ['uploadedAt', 'filename', 'sizeBytes'] },
    order: { type: 'string', enum: ['asc', 'desc'] },
    limit: { type: 'integer', minimum: 1, maximum: MEDIA_PAGE_MAX, default: MEDIA_PAGE_DEFAULT },
    offset: OFFSET_QUERY_SCHEMA,
  },
};

/** `{id}` of `GET` and `DELETE /api/v1/media/{id}`. */
export const MEDIA_ID_PARAMS_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', format: 'uuid' } },
};

/** `DELETE /api/v1/media/{id}` answer. */
export const MEDIA_DELETED_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['deleted', 'id'],
  properties: { deleted: { const: true }, id: { type: 'string', format: 'uuid' } },
};

/**
 * The file url's path parameters. Not validated as uuids here: any mismatch is answered 404 by the
 * service, as a file url that names nothing should be. `*` is the storage name: a wildcard, since
 * a named parameter is capped at 100 characters by the router and storage names reach 200 bytes.
 */
export const MEDIA_FILE_PARAMS_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['projectId', 'environmentId', 'mediaId', '*'],
  properties: {
    projectId: { type: 'string' },
    environmentId: { type: 'string' },
    mediaId: { type: 'string' },
    '*': { type: 'string' },
  },
};
