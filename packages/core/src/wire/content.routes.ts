/**
 * Content routes (interface.md "Content endpoints", "Document", "List query parameters", "Variant
 * entry"): the document shape, reads, draft writes and preview tokens. Query schemas reject unknown
 * parameters (decisions.md §3), and booleans accept only `true` and `false`.
 */
import { type Static, Type } from 'typebox';
import { FIELD_NAME_PATTERN, MAX_FIELD_DEPTH } from '../schema/field-definition.js';
import { defineRoute } from './define-route.js';
import {
  AnyObject,
  LimitQuery,
  MAX_LOCALE_LENGTH,
  MAX_PATH_LENGTH,
  Nullable,
  OffsetQuery,
  StringEnum,
  StringMap,
  Timestamp,
  Uuid,
  WithDefault,
} from './shapes.js';

/** Source formats of a document body. */
export const DocumentFormatSchema = StringEnum(['md', 'mdx']);
export type DocumentFormat = Static<typeof DocumentFormatSchema>;

/** Why `resolve=` could not follow a reference: not HTTP errors, they sit in a successful answer. */
export const ResolveErrorCodeSchema = StringEnum([
  'REFERENCE_NOT_FOUND',
  'REFERENCE_DELETED',
  'REFERENCE_TYPE_MISMATCH',
  'REFERENCE_FORBIDDEN',
]);
export type ResolveErrorCode = Static<typeof ResolveErrorCodeSchema>;

/** A reference `resolve=` could not follow, keyed in `resolveErrors` by its JSON path (`frontmatter.related[1]`). */
export const ResolveErrorSchema = Type.Object({
  code: ResolveErrorCodeSchema,
  message: Type.String(),
  ref: Type.Object({ documentId: Type.String(), type: Type.String() }),
});
export type ResolveError = Static<typeof ResolveErrorSchema>;

/** Wire shape of a document (interface.md "Document"). */
export const DocumentSchema = Type.Object({
  documentId: Uuid,
  translationGroupId: Uuid,
  project: Type.String(),
  environment: Type.String(),
  path: Type.String(),
  type: Type.String(),
  locale: Type.String(),
  format: DocumentFormatSchema,
  isDeleted: Type.Boolean(),
  hasUnpublishedChanges: Type.Boolean(),
  version: Type.Integer(),
  publishedVersion: Nullable(Type.Integer()),
  draftRevision: Type.Integer(),
  frontmatter: AnyObject,
  body: Type.String(),
  /**
   * The draft's text as it was written (frontmatter as written, line endings, final newline): on draft
   * reads of a document pushed with `source`, patched in place by every later edit.
   */
  source: Type.Optional(Type.String()),
  resolveErrors: StringMap({}, ResolveErrorSchema),
  createdBy: Type.String(),
  updatedBy: Type.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Document = Static<typeof DocumentSchema>;

/**
 * An item of `GET /content`: a document, without `body` and `source` when the list asked
 * `includeBody=false` (lists that show titles and fields, not the text: the Studio's lists).
 */
export const DocumentListItemSchema = Type.Object({ ...DocumentSchema.properties, body: Type.Optional(Type.String()) });
/** A document as a list read with `includeBody=false` answers it. */
export type DocumentSummary = Omit<Document, 'body' | 'source'>;

/** Path parameter of every `/content/{documentId}` route. */
export const DocumentIdParamsSchema = Type.Object({ documentId: Uuid }, { additionalProperties: false });
export type DocumentIdParams = Static<typeof DocumentIdParamsSchema>;

/** Page size default and maximum of content lists (interface.md "Limits"). */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Most `resolve` parameters one request may send. */
export const MAX_RESOLVE_PARAMS = 50;
/** Most `type` parameters of one overview request. */
export const MAX_OVERVIEW_TYPES = 200;
/** Longest `slug` filter value. */
export const MAX_SLUG_LENGTH = 512;
/** Longest accepted body text; the request body limit applies too. */
export const MAX_BODY_TEXT = 5_000_000;
/** Longest accepted source text (the body plus its frontmatter as written). */
export const MAX_SOURCE_TEXT = 6_000_000;
/**
 * `source` of a write: the file's text as written. The server keeps it (patched to the frontmatter and
 * body it stores, which stay the truth) and answers it on draft reads, so a pull gives back these bytes.
 */
export const SourceTextSchema = Type.String({ maxLength: MAX_SOURCE_TEXT });
/** Longest preview URL accepted. */
export const MAX_PREVIEW_URL_LENGTH = 2048;
/** Longest publish change summary. */
export const MAX_CHANGE_SUMMARY = 1000;

const fieldName = FIELD_NAME_PATTERN.source.slice(1, -1);

/** A locale filter: a BCP 47 tag, canonicalised by the server, or `__cms_default__`. */
const LocaleQuery = Type.String({ minLength: 1, maxLength: MAX_LOCALE_LENGTH });

/** `resolve`: reference fields in dot notation (`author`, `seo.author`), at most as deep as fields nest. */
const ResolveQuery = Type.Array(Type.String({ pattern: `^${fieldName}(\\.${fieldName}){0,${MAX_FIELD_DEPTH - 1}}$` }), {
  maxItems: MAX_RESOLVE_PARAMS,
});

/** `X-CMS-Locale`: empty counts as absent; the server checks the tag itself. */
export const LocaleHeadersSchema = Type.Object({
  'x-cms-locale': Type.Optional(Type.String({ maxLength: MAX_LOCALE_LENGTH })),
});

/** Query of `GET /content/{documentId}`. */
export const GetDocumentQuerySchema = Type.Object(
  {
    locale: Type.Optional(LocaleQuery),
    resolve: Type.Optional(ResolveQuery),
    draft: WithDefault(Type.Boolean(), false),
    /**
     * Release preview: the document as the site would show it once this release is out (its draft
     * when the release publishes it, absent when it unpublishes it, else the published content).
     * Needs `content:read:draft`.
     */
    release: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);

/** Sort keys of `GET /content`. */
export const DocumentSortSchema = StringEnum(['createdAt', 'updatedAt', 'path']);
export type DocumentSort = Static<typeof DocumentSortSchema>;

/** Query of `GET /content`. `order` has no static default: it depends on `sort`. */
export const ListDocumentsQuerySchema = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 64 }),
    locale: Type.Optional(LocaleQuery),
    path: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_PATH_LENGTH })),
    slug: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_SLUG_LENGTH })),
    published: Type.Optional(Type.Boolean()),
    isDeleted: WithDefault(Type.Boolean(), false),
    hasUnpublishedChanges: Type.Optional(Type.Boolean()),
    /** Only documents changed after this instant (`updatedAt` strictly later): incremental site builds. */
    updatedSince: Type.Optional(Timestamp),
    draft: WithDefault(Type.Boolean(), false),
    /**
     * Release preview: the documents of the type as the site would list them once this release is
     * out (drafts of the items it publishes, without the ones it unpublishes). Needs `content:read:draft`.
     */
    release: Type.Optional(Uuid),
    resolve: Type.Optional(ResolveQuery),
    /** `false`: the documents without `body` and `source` (a list of titles and fields is a few KB, not the bodies). */
    includeBody: WithDefault(Type.Boolean(), true),
    limit: WithDefault(LimitQuery(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE), DEFAULT_PAGE_SIZE),
    offset: WithDefault(OffsetQuery, 0),
    sort: WithDefault(DocumentSortSchema, 'createdAt'),
    order: Type.Optional(StringEnum(['asc', 'desc'])),
  },
  { additionalProperties: false },
);

/** Query of `GET /content/overview`: `type` repeatable, all types of the schema when omitted. */
export const OverviewQuerySchema = Type.Object(
  {
    type: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: MAX_OVERVIEW_TYPES })),
  },
  { additionalProperties: false },
);

/** Response of `GET /content/overview`. */
export const OverviewSchema = Type.Object({
  counts: Type.Array(
    Type.Object({
      type: Type.String(),
      total: Type.Integer(),
      published: Type.Integer(),
      draft: Type.Integer(),
      deleted: Type.Integer(),
    }),
  ),
});
export type Overview = Static<typeof OverviewSchema>;

/** Query of `GET /content/digest`: `type` repeatable, every type of the schema when omitted. */
export const DigestQuerySchema = OverviewQuerySchema;

/**
 * One live document of `GET /content/digest`: what a sync client compares with its manifest to know
 * which documents changed on the server, without their content.
 */
export const DigestEntrySchema = Type.Object({
  documentId: Uuid,
  translationGroupId: Uuid,
  type: Type.String(),
  path: Type.String(),
  locale: Type.String(),
  format: DocumentFormatSchema,
  draftRevision: Type.Integer(),
  version: Type.Integer(),
  publishedVersion: Nullable(Type.Integer()),
  hasUnpublishedChanges: Type.Boolean(),
  updatedAt: Timestamp,
});
export type DigestEntry = Static<typeof DigestEntrySchema>;

/** Response of `GET /content/digest`: every live document of the types asked, ordered by type, path and locale. */
export const DigestSchema = Type.Object({ documents: Type.Array(DigestEntrySchema) });
export type Digest = Static<typeof DigestSchema>;

/** One variant entry (interface.md "Variant entry"). */
export const VariantSchema = Type.Object({
  documentId: Uuid,
  locale: Type.String(),
  path: Type.String(),
  version: Type.Integer(),
  publishedVersion: Nullable(Type.Integer()),
  hasUnpublishedChanges: Type.Boolean(),
  updatedAt: Timestamp,
});
export type Variant = Static<typeof VariantSchema>;

/** Body of `POST /content/{documentId}/preview-token` (the body itself may be omitted). */
export const PreviewTokenBodySchema = Nullable(
  Type.Object(
    {
      previewUrl: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_PREVIEW_URL_LENGTH })),
      /** A release preview token: its holder reads (and lists) content as this release would publish it. */
      release: Type.Optional(Uuid),
    },
    { additionalProperties: false },
  ),
);

/** Response of `POST /content/{documentId}/preview-token`. */
export const PreviewTokenSchema = Type.Object({ token: Type.String(), expiresAt: Timestamp });

/**
 * What a preview token carries (decisions.md §5): the draft it is bound to, and its JWT issue and
 * expiry times (seconds since the epoch). Sites read it to know what to fetch; the server verifies it.
 */
export const PreviewClaimsSchema = Type.Object({
  documentId: Uuid,
  project: Type.String(),
  environment: Type.String(),
  locale: Type.String(),
  path: Type.String(),
  draftRevision: Type.Integer(),
  previewUrl: Type.Optional(Type.String()),
  /** The release a release preview token shows: its reads are `release=<id>` reads (docs/api.md). */
  release: Type.Optional(Uuid),
  iat: Type.Integer(),
  exp: Type.Integer(),
});
export type PreviewClaims = Static<typeof PreviewClaimsSchema>;
export type PreviewToken = Static<typeof PreviewTokenSchema>;

/** `POST /content` body (interface.md "Create body"; `translationGroupId` per decisions.md §3). */
export const CreateDocumentBodySchema = Type.Object(
  {
    type: Type.String({ minLength: 1 }),
    path: Type.String(),
    // An empty locale is the caller's mistake (a blank form field), answered as INVALID_INPUT; its
    // other rules (length, form) are the service's, answered on the field `locale`.
    locale: Type.Optional(Type.String({ minLength: 1 })),
    format: WithDefault(DocumentFormatSchema, 'md'),
    frontmatter: AnyObject,
    body: WithDefault(Type.String({ maxLength: MAX_BODY_TEXT }), ''),
    source: Type.Optional(SourceTextSchema),
    translationGroupId: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);

/**
 * `PUT /content/{documentId}` body: complete frontmatter and body (partial updates are not
 * supported, so a missing body is an error rather than an erased one) and the revision last fetched.
 */
export const UpdateDocumentBodySchema = Type.Object(
  {
    frontmatter: AnyObject,
    body: Type.String({ maxLength: MAX_BODY_TEXT }),
    source: Type.Optional(SourceTextSchema),
    draftRevision: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false },
);

/** `POST /content/{documentId}/duplicate` body, optional: the copy's path (default `<path>-copy`, `-copy-2`, ...). */
export const DuplicateDocumentBodySchema = Nullable(
  Type.Object({ path: Type.Optional(Type.String()) }, { additionalProperties: false }),
);

/** `X-CMS-Schema-Hash`: required, but its absence is SCHEMA_HASH_MISMATCH (409), not a validation error. */
const SchemaHashHeader = Type.String({
  description: "Required: the server's schema hash; missing or different is SCHEMA_HASH_MISMATCH (409).",
});

/** Headers of draft updates: the schema hash. */
export const SchemaHashHeadersSchema = Type.Object({ 'x-cms-schema-hash': Type.Optional(SchemaHashHeader) });

/** Headers of create: the schema hash and the optional locale override. */
export const CreateDocumentHeadersSchema = Type.Object({
  'x-cms-schema-hash': Type.Optional(SchemaHashHeader),
  'x-cms-locale': Type.Optional(
    Type.String({ description: 'Locale of the new document when the body has none (BCP 47).' }),
  ),
});

/** `DELETE /content/{documentId}` answer. */
export const DeleteResultSchema = Type.Object({
  documentId: Uuid,
  isDeleted: Type.Boolean(),
  deletedAt: Timestamp,
  deletedBy: Type.String(),
});

/** `POST /content/{documentId}/restore` answer. */
export const RestoreResultSchema = Type.Object({
  documentId: Uuid,
  isDeleted: Type.Boolean(),
  restoredAt: Timestamp,
  restoredBy: Type.String(),
});

export const contentListRoute = defineRoute({
  id: 'content.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/content',
  summary: 'List documents of a type: published content by default, drafts with draft=true',
  target: 'environment',
  repeatableQuery: ['resolve'],
  request: { query: ListDocumentsQuerySchema, headers: LocaleHeadersSchema },
  response: { status: 200, envelope: 'paginated', schema: DocumentListItemSchema, conditional: true },
  errors: ['SCHEMA_NOT_FOUND', 'NOT_FOUND'],
});

export const contentOverviewRoute = defineRoute({
  id: 'content.overview',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/content/overview',
  summary: 'Count documents per type: total, published, draft and deleted',
  target: 'environment',
  repeatableQuery: ['type'],
  request: { query: OverviewQuerySchema },
  response: { status: 200, envelope: 'single', schema: OverviewSchema },
  errors: ['SCHEMA_NOT_FOUND'],
});

export const contentDigestRoute = defineRoute({
  id: 'content.digest',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/content/digest',
  summary: 'List every live document with its revisions and no content, for sync clients to compare',
  target: 'environment',
  repeatableQuery: ['type'],
  request: { query: DigestQuerySchema },
  response: { status: 200, envelope: 'single', schema: DigestSchema },
  errors: ['SCHEMA_NOT_FOUND'],
});

export const contentGetRoute = defineRoute({
  id: 'content.get',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/content/{documentId}',
  summary: 'Get a document: published content by default, the draft with draft=true',
  target: 'environment',
  repeatableQuery: ['resolve'],
  request: { params: DocumentIdParamsSchema, query: GetDocumentQuerySchema, headers: LocaleHeadersSchema },
  response: { status: 200, envelope: 'single', schema: DocumentSchema, conditional: true },
});

export const contentVariantsListRoute = defineRoute({
  id: 'content.variants.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/content/{documentId}/variants',
  summary: 'List the locale variants of a document',
  target: 'environment',
  request: { params: DocumentIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: Type.Array(VariantSchema) },
});

export const contentPreviewTokensCreateRoute = defineRoute({
  id: 'content.previewTokens.create',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/content/{documentId}/preview-token',
  summary: 'Issue a short-lived preview token for the draft of a document',
  target: 'environment',
  request: { params: DocumentIdParamsSchema, body: PreviewTokenBodySchema },
  response: { status: 200, envelope: 'single', schema: PreviewTokenSchema },
  errors: ['PREVIEW_TOKEN_UNAVAILABLE'],
});

/** Query of `GET /content/{documentId}/preview-events`: EventSource cannot send headers, so the token rides here. */
export const PreviewEventsQuerySchema = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 8192 }) },
  { additionalProperties: false },
);

/** `data` of a `change` event of the preview stream (docs/live-preview.md "Server-rendered sites"). */
export const PreviewChangeEventSchema = Type.Object({
  documentId: Uuid,
  draftRevision: Type.Integer(),
  updatedAt: Timestamp,
  /** A token for the new draft revision, expiring when the presented one does. */
  token: Type.String(),
});
export type PreviewChangeEvent = Static<typeof PreviewChangeEventSchema>;

export const contentPreviewEventsRoute = defineRoute({
  id: 'content.previewEvents',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/content/{documentId}/preview-events',
  summary: 'Server-sent events: `change` on each saved change of the draft a preview token names',
  // The token names project and environment, and is the credential: no routing headers, no key.
  target: 'none',
  auth: 'public',
  // The preview token is a bearer credential for drafts: the request log line shows it `[redacted]`.
  secretQuery: ['token'],
  request: { params: DocumentIdParamsSchema, query: PreviewEventsQuerySchema },
  response: { status: 200, envelope: 'raw', contentType: 'text/event-stream' },
  errors: ['PREVIEW_TOKEN_UNAVAILABLE', 'UNAUTHORIZED', 'FORBIDDEN'],
});

export const contentCreateRoute = defineRoute({
  id: 'content.create',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/content',
  summary: 'Create a draft document',
  target: 'environment',
  request: { body: CreateDocumentBodySchema, headers: CreateDocumentHeadersSchema },
  response: { status: 201, envelope: 'single', schema: DocumentSchema },
  errors: ['CONTENT_PATH_CONFLICT'],
});

export const contentUpdateRoute = defineRoute({
  id: 'content.update',
  kind: 'command',
  method: 'PUT',
  path: '/api/v1/content/{documentId}',
  summary: "Replace a document's draft (frontmatter and body)",
  target: 'environment',
  request: { params: DocumentIdParamsSchema, body: UpdateDocumentBodySchema, headers: SchemaHashHeadersSchema },
  response: { status: 200, envelope: 'single', schema: DocumentSchema },
  errors: ['CONFLICT', 'CONTENT_PATH_CONFLICT'],
});

export const contentDuplicateRoute = defineRoute({
  id: 'content.duplicate',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/content/{documentId}/duplicate',
  summary: 'Copy a document into a new draft at a new path',
  target: 'environment',
  request: { params: DocumentIdParamsSchema, body: DuplicateDocumentBodySchema },
  response: { status: 201, envelope: 'single', schema: DocumentSchema },
  errors: ['CONTENT_PATH_CONFLICT'],
});

export const contentDeleteRoute = defineRoute({
  id: 'content.delete',
  kind: 'command',
  method: 'DELETE',
  path: '/api/v1/content/{documentId}',
  summary: 'Soft-delete a document',
  target: 'environment',
  request: { params: DocumentIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: DeleteResultSchema },
});

export const contentRestoreRoute = defineRoute({
  id: 'content.restore',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/content/{documentId}/restore',
  summary: 'Restore a soft-deleted document',
  target: 'environment',
  request: { params: DocumentIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: RestoreResultSchema },
  errors: ['CONTENT_PATH_CONFLICT'],
});
