/** Publishing and version history routes (interface.md "Content endpoints", "Version entry"). */
import { type Static, Type } from 'typebox';
import { DocumentIdParamsSchema, MAX_CHANGE_SUMMARY } from './content.routes.js';
import { defineRoute } from './define-route.js';
import { AnyObject, LimitQuery, Nullable, OffsetQuery, OrderQuery, Timestamp, Uuid, WithDefault } from './shapes.js';

/** Default and largest page of the versions list (interface.md "Limits"). */
export const VERSIONS_PAGE_DEFAULT = 20;
export const VERSIONS_PAGE_MAX = 100;

/** `POST /content/{documentId}/publish` body, optional. */
export const PublishDocumentBodySchema = Nullable(
  Type.Object(
    { changeSummary: Type.Optional(Type.String({ maxLength: MAX_CHANGE_SUMMARY })) },
    { additionalProperties: false },
  ),
);

/** `POST /content/{documentId}/publish` answer. */
export const PublishResultSchema = Type.Object({
  documentId: Uuid,
  version: Type.Integer(),
  publishedVersion: Nullable(Type.Integer()),
  hasUnpublishedChanges: Type.Boolean(),
  publishedAt: Timestamp,
  publishedBy: Type.String(),
  changeSummary: Nullable(Type.String()),
});
export type PublishResult = Static<typeof PublishResultSchema>;

/** `POST /content/{documentId}/unpublish` answer. */
export const UnpublishResultSchema = Type.Object({
  documentId: Uuid,
  version: Type.Integer(),
  publishedVersion: Type.Null(),
  hasUnpublishedChanges: Type.Boolean(),
});
export type UnpublishResult = Static<typeof UnpublishResultSchema>;

const versionEntryProperties = {
  version: Type.Integer(),
  publishedAt: Timestamp,
  publishedBy: Type.String(),
  changeSummary: Nullable(Type.String()),
};

/** A version entry of the list (interface.md "Version entry"). */
export const VersionEntrySchema = Type.Object(versionEntryProperties);
export type VersionEntry = Static<typeof VersionEntrySchema>;

/** One version with its snapshot. */
export const VersionSnapshotSchema = Type.Object({
  documentId: Uuid,
  ...versionEntryProperties,
  frontmatter: AnyObject,
  body: Type.String(),
});
export type VersionSnapshot = Static<typeof VersionSnapshotSchema>;

/** `GET /content/{documentId}/versions` query: newest first unless `order=asc` (by version number). */
export const VersionsQuerySchema = Type.Object(
  {
    limit: WithDefault(LimitQuery(VERSIONS_PAGE_DEFAULT, VERSIONS_PAGE_MAX), VERSIONS_PAGE_DEFAULT),
    offset: WithDefault(OffsetQuery, 0),
    order: WithDefault(OrderQuery, 'desc'),
  },
  { additionalProperties: false },
);

/** Path of `/content/{documentId}/versions/{version}` routes. */
export const VersionParamsSchema = Type.Object(
  { documentId: Uuid, version: Type.Integer({ minimum: 1 }) },
  { additionalProperties: false },
);

/** `POST /content/{documentId}/versions/{version}/restore` answer. */
export const RestoreVersionResultSchema = Type.Object({
  documentId: Uuid,
  version: Type.Integer(),
  publishedVersion: Nullable(Type.Integer()),
  draftRevision: Type.Integer(),
  hasUnpublishedChanges: Type.Boolean(),
  restoredFromVersion: Type.Integer(),
});
export type RestoreVersionResult = Static<typeof RestoreVersionResultSchema>;

export const contentPublishRoute = defineRoute({
  id: 'content.publish',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/content/{documentId}/publish',
  summary: 'Publish the draft as a new immutable version',
  target: 'environment',
  request: { params: DocumentIdParamsSchema, body: PublishDocumentBodySchema },
  response: { status: 200, envelope: 'single', schema: PublishResultSchema },
});

export const contentUnpublishRoute = defineRoute({
  id: 'content.unpublish',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/content/{documentId}/unpublish',
  summary: 'Withdraw the published version (history kept)',
  target: 'environment',
  request: { params: DocumentIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: UnpublishResultSchema },
});

export const contentVersionsListRoute = defineRoute({
  id: 'content.versions.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/content/{documentId}/versions',
  summary: "List a document's published versions, newest first (order=asc: oldest first)",
  target: 'environment',
  request: { params: DocumentIdParamsSchema, query: VersionsQuerySchema },
  response: { status: 200, envelope: 'paginated', schema: VersionEntrySchema },
});

export const contentVersionsGetRoute = defineRoute({
  id: 'content.versions.get',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/content/{documentId}/versions/{version}',
  summary: 'Get one published version with its snapshot',
  target: 'environment',
  request: { params: VersionParamsSchema },
  response: { status: 200, envelope: 'single', schema: VersionSnapshotSchema },
});

export const contentVersionsRestoreRoute = defineRoute({
  id: 'content.versions.restore',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/content/{documentId}/versions/{version}/restore',
  summary: 'Restore a version into the draft',
  target: 'environment',
  request: { params: VersionParamsSchema },
  response: { status: 200, envelope: 'single', schema: RestoreVersionResultSchema },
  errors: ['CONTENT_PATH_CONFLICT'],
});
