/** Media routes (interface.md "Media endpoints", "Media asset", "Media list query"; docs/api.md "Media"). */
import { type Static, Type } from 'typebox';
import { defineRoute } from './define-route.js';
import { LimitQuery, Nullable, OffsetQuery, StringEnum, Timestamp, Uuid, WithDefault } from './shapes.js';

/** Derived categories, the `category` filter values. */
export const MEDIA_CATEGORIES = ['image', 'video', 'audio', 'document', 'archive', 'other'] as const;
export const MediaCategorySchema = StringEnum(MEDIA_CATEGORIES);
export type MediaCategory = Static<typeof MediaCategorySchema>;

/** Media page size (interface.md "Limits"). */
export const MEDIA_PAGE_DEFAULT = 30;
export const MEDIA_PAGE_MAX = 100;

/** Where media files are served: an asset's `url` is `<public base>/media/...`. */
export const MEDIA_FILE_PATH_PREFIX = '/media';

/** The multipart part that carries the uploaded file. */
export const UPLOAD_PART = 'file';

/** Longest `alt` text. */
export const MEDIA_ALT_MAX_LENGTH = 1000;

/** Where the subject of an image is, as fractions of its width and height (0..1 from the top left). */
export const FocalPointSchema = Type.Object(
  { x: Type.Number({ minimum: 0, maximum: 1 }), y: Type.Number({ minimum: 0, maximum: 1 }) },
  { additionalProperties: false },
);
export type FocalPoint = Static<typeof FocalPointSchema>;

/**
 * A media asset (interface.md "Media asset", plus `environment` and `category`, and for images
 * `alt`, `width`, `height` and `focalPoint`, decisions.md §8 "Media").
 */
export const MediaAssetSchema = Type.Object({
  id: Uuid,
  project: Type.String(),
  environment: Type.String(),
  filename: Type.String(),
  mimeType: Type.String(),
  category: MediaCategorySchema,
  sizeBytes: Type.Integer(),
  url: Type.String({ format: 'uri' }),
  uploadedBy: Type.String(),
  uploadedAt: Timestamp,
  /** Text alternative for the image; empty until someone writes it. */
  alt: Type.String(),
  /** Pixel size as displayed (EXIF orientation applied), read at upload; null for other files. */
  width: Nullable(Type.Integer()),
  height: Nullable(Type.Integer()),
  /** Where crops centre; null means the middle. */
  focalPoint: Nullable(FocalPointSchema),
});
export type MediaAsset = Static<typeof MediaAssetSchema>;

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

/** `GET /api/v1/media` query; unknown parameters are rejected. */
export const MediaListQuerySchema = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 255 })),
    category: Type.Optional(MediaCategorySchema),
    uploadedBy: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    // The pattern gives a clear message for the shape; the server rejects impossible dates.
    uploadedFrom: Type.Optional(Type.String({ pattern: DATE_PATTERN })),
    uploadedTo: Type.Optional(Type.String({ pattern: DATE_PATTERN })),
    sort: Type.Optional(StringEnum(['uploadedAt', 'filename', 'sizeBytes'])),
    order: Type.Optional(StringEnum(['asc', 'desc'])),
    limit: WithDefault(LimitQuery(MEDIA_PAGE_DEFAULT, MEDIA_PAGE_MAX), MEDIA_PAGE_DEFAULT),
    offset: WithDefault(OffsetQuery, 0),
  },
  { additionalProperties: false },
);

/** `{id}` of `GET` and `DELETE /api/v1/media/{id}`. */
export const MediaIdParamsSchema = Type.Object({ id: Uuid });

/** `PATCH /api/v1/media/{id}` body: the fields to change; `focalPoint: null` goes back to the middle. */
export const MediaUpdateBodySchema = Type.Object(
  {
    alt: Type.Optional(Type.String({ maxLength: MEDIA_ALT_MAX_LENGTH })),
    focalPoint: Type.Optional(Nullable(FocalPointSchema)),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type MediaUpdateBody = Static<typeof MediaUpdateBodySchema>;

/** `DELETE /api/v1/media/{id}` answer. */
export const MediaDeletedSchema = Type.Object({ deleted: Type.Literal(true), id: Uuid });

/**
 * The file url's path parameters. Not validated as uuids: any mismatch is answered 404, as a file
 * url that names nothing should be. `*` is the storage name: a wildcard, since a named parameter is
 * capped at 100 characters by the router and storage names reach 200 bytes.
 */
export const MediaFileParamsSchema = Type.Object({
  projectId: Type.String(),
  environmentId: Type.String(),
  mediaId: Type.String(),
  '*': Type.String(),
});

/** The `multipart/form-data` body of one required binary part named `part`. */
export function SingleFileFormSchema(part: string) {
  return Type.Object({
    [part]: Type.Unsafe<Blob>({ type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' }),
  });
}

export const mediaListRoute = defineRoute({
  id: 'media.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/media',
  summary: 'List media with filters, sorting and pagination',
  target: 'environment',
  request: { query: MediaListQuerySchema },
  response: { status: 200, envelope: 'paginated', schema: MediaAssetSchema },
});

export const mediaUploadRoute = defineRoute({
  id: 'media.upload',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/media/upload',
  summary: `Upload a file (multipart/form-data, one part "${UPLOAD_PART}")`,
  target: 'environment',
  request: { multipart: SingleFileFormSchema(UPLOAD_PART) },
  response: { status: 201, envelope: 'single', schema: MediaAssetSchema },
});

export const mediaGetRoute = defineRoute({
  id: 'media.get',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/media/{id}',
  summary: 'Get one media asset',
  target: 'environment',
  request: { params: MediaIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: MediaAssetSchema },
});

export const mediaUpdateRoute = defineRoute({
  id: 'media.update',
  kind: 'command',
  method: 'PATCH',
  path: '/api/v1/media/{id}',
  summary: 'Change the alt text or the focal point of a media asset',
  target: 'environment',
  request: { params: MediaIdParamsSchema, body: MediaUpdateBodySchema },
  response: { status: 200, envelope: 'single', schema: MediaAssetSchema },
});

export const mediaDeleteRoute = defineRoute({
  id: 'media.delete',
  kind: 'command',
  method: 'DELETE',
  path: '/api/v1/media/{id}',
  summary: 'Delete a media asset and its file; its url stops working at once',
  target: 'environment',
  request: { params: MediaIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: MediaDeletedSchema },
});

export const mediaFileRoute = defineRoute({
  id: 'media.file',
  kind: 'query',
  method: 'GET',
  path: '/media/{projectId}/{environmentId}/{mediaId}/*',
  summary: 'Download a media file (the asset url; supports Range, ETag and If-None-Match)',
  target: 'none',
  auth: 'public',
  request: { params: MediaFileParamsSchema },
  response: { status: 200, envelope: 'raw', conditional: true, ranges: true },
});
