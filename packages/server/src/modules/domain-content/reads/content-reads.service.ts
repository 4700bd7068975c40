import {
  type ActionInput,
  CmsError,
  type contentGetRoute,
  type contentListRoute,
  type Document,
  invalidQueryParam,
  notFound,
  type Overview,
  type Page,
  type SchemaType,
} from '@cms/core';
import type { EnvironmentContext, Target } from '../../../http/request-context.js';
import type { Queryable } from '../../../storage/db.js';
import {
  countDocumentsByType,
  type DigestRow,
  type DocumentReadRow,
  type DocumentSort,
  findReadableDocument,
  listDigestRows,
  listDocumentRows,
  listVariantRows,
  type VariantRow,
} from '../../../storage/repositories/content-reads.repository.js';
import { hasRelease } from '../../../storage/repositories/release-view.js';
import { toContentView } from '../documents/document-view.js';
import { requireSchemaType, type SchemaReader } from '../schema/schema-reader.js';
import { previewClaimsOf } from './preview-tokens.js';
import {
  assertCanReadDraft,
  assertPreviewMayRead,
  assertPreviewRequest,
  previewedRelease,
  requestedLocale,
} from './read-rules.js';
import {
  assertResolvable,
  assertResolvableInSomeType,
  referenceJsonPaths,
  referenceJsonPathsOfAnyType,
  resolveReferences,
} from './reference-resolver.js';

/** `X-CMS-Locale`, used when the `locale` query is absent. */
interface HeaderLocale {
  headerLocale?: string;
}

/** `GET /content/{documentId}` as the service takes it: the route's validated query, the id, the header locale. */
export type GetDocumentInput = ActionInput<typeof contentGetRoute>['query'] & { documentId: string } & HeaderLocale;

/** `GET /content` as the service takes it: the route's validated query and the header locale. */
export type ListDocumentsInput = ActionInput<typeof contentListRoute>['query'] & HeaderLocale;

/** The reads of documents: get, list, overview and variants. */
export interface ContentReadsService {
  get(ctx: EnvironmentContext, input: GetDocumentInput): Promise<Document>;
  list(ctx: EnvironmentContext, input: ListDocumentsInput): Promise<Page<Document>>;
  overview(ctx: EnvironmentContext, input: { types?: readonly string[] }): Promise<Overview>;
  /** Every live document's revisions, without content, for sync clients (drafts: needs content:read:draft). */
  digest(ctx: EnvironmentContext, input: { types?: readonly string[] }): Promise<{ documents: DigestRow[] }>;
  listVariants(ctx: EnvironmentContext, input: { documentId: string }): Promise<VariantRow[]>;
}

/**
 * The release a read previews (docs/api.md "Release preview"), checked: it needs
 * `content:read:draft` and a release of this project and environment (else NOT_FOUND).
 */
async function assertReleasePreview(
  db: Queryable,
  ctx: EnvironmentContext,
  input: { draft: boolean; release?: string },
): Promise<string | undefined> {
  const release = previewedRelease(previewClaimsOf(ctx.principal), input);
  if (release === undefined) return undefined;
  assertCanReadDraft(ctx);
  if (!(await hasRelease(db, ctx.target, release))) {
    throw notFound(`Release ${release} in this project and environment`);
  }
  return release;
}

/** Dates sort newest first by default, paths alphabetically (interface.md "Pagination and sorting"). */
function defaultOrder(sort: DocumentSort): 'asc' | 'desc' {
  return sort === 'path' ? 'asc' : 'desc';
}

/** Creates the reads service. Reads run outside transactions: each is one statement, one snapshot. */
export function createContentReadsService(deps: { db: Queryable; schemas: SchemaReader }): ContentReadsService {
  const { db, schemas } = deps;

  /** Renders rows; with `resolve`, replaces references by the documents each row's read fetched. */
  const render = (
    target: Target,
    rows: readonly DocumentReadRow[],
    options: { draft: boolean; release: boolean; type: SchemaType | undefined; resolve: ReadonlySet<string> },
  ): Document[] => {
    const { draft, release, type } = options;
    if (options.resolve.size === 0 || !type) return rows.map((row) => toContentView(row, { target }));
    const subjects = rows.map((row) => ({ type, frontmatter: row.frontmatter ?? {} }));
    const referenced = rows.flatMap((row) => row.referenced ?? []);
    const outcomes = resolveReferences(subjects, referenced, { fields: options.resolve, draft, release });
    return rows.map((row, index) => toContentView(row, { target, ...outcomes[index] }));
  };

  return {
    async get(ctx, input) {
      const { target } = ctx;
      const release = await assertReleasePreview(db, ctx, input);
      if (input.draft) assertCanReadDraft(ctx);
      // A release preview token reads any document as its release leaves it, not one draft.
      const preview = release === undefined ? previewClaimsOf(ctx.principal) : null;
      if (preview) assertPreviewRequest(preview, input);
      const locale = requestedLocale(input);
      const paths = [...new Set(input.resolve ?? [])];
      // The row's type is known only after the read, so the read fetches what these paths hold in
      // any type; they are checked against the row's own type below.
      const schema = paths.length > 0 ? await schemas.find(target) : null;
      // Input before lookup, as on lists: a path that is a reference field of no type is a bad query,
      // whether or not the document exists.
      if (paths.length > 0) assertResolvableInSomeType(schema?.types.values() ?? [], paths);
      const referencePaths = referenceJsonPathsOfAnyType(schema?.types.values() ?? [], paths);
      const row = await findReadableDocument(
        db,
        target,
        { id: input.documentId, ...(locale === undefined ? {} : { locale }) },
        {
          draft: input.draft,
          ...(release === undefined ? {} : { release }),
          ...(referencePaths.length > 0 ? { referencePaths } : {}),
        },
      );
      if (!row && release !== undefined) throw notInRelease(input.documentId, release);
      // Published reads never see a document without a published version (never or no longer published).
      if (!row) throw notFound(`Document ${input.documentId}`);
      if (!input.draft && release === undefined && row.publishedVersion === null) throw draftOnly(input.documentId);
      if (preview) assertPreviewMayRead(preview, row);
      if (paths.length === 0) return toContentView(row, { target });
      const type = schema?.types.get(row.type);
      const resolve = assertResolvable(type, row.type, paths);
      const [view] = render(target, [row], { draft: input.draft, release: release !== undefined, type, resolve });
      return view as Document;
    },

    async list(ctx, input) {
      const { target } = ctx;
      const release = await assertReleasePreview(db, ctx, input);
      if (input.draft) assertCanReadDraft(ctx);
      const type = requireSchemaType(await schemas.find(target), input.type).type;
      if (input.slug !== undefined && !Object.hasOwn(type.fields, 'slug')) {
        throw invalidQueryParam({ slug: `type "${type.name}" has no slug field, so it cannot be filtered by slug` });
      }
      const resolve = assertResolvable(type, type.name, [...new Set(input.resolve ?? [])]);
      // A locale selects among variants, so it applies to localized types only (docs/api.md).
      const locale = type.localized ? requestedLocale(input) : undefined;
      const { rows, total } = await listDocumentRows(
        db,
        target,
        {
          type: type.name,
          published: !input.draft,
          ...(release === undefined ? {} : { release }),
          includeDeleted: input.isDeleted,
          ...(input.published === undefined ? {} : { isPublished: input.published }),
          ...(input.hasUnpublishedChanges === undefined ? {} : { hasUnpublishedChanges: input.hasUnpublishedChanges }),
          ...(locale === undefined ? {} : { locale }),
          ...(input.path === undefined ? {} : { path: input.path }),
          ...(input.slug === undefined ? {} : { slug: input.slug }),
          ...(input.updatedSince === undefined ? {} : { updatedSince: new Date(input.updatedSince) }),
        },
        { sort: input.sort, order: input.order ?? defaultOrder(input.sort), limit: input.limit, offset: input.offset },
        resolve.size > 0 ? { referencePaths: referenceJsonPaths(type, resolve) } : {},
      );
      const items = render(target, rows, { draft: input.draft, release: release !== undefined, type, resolve });
      return { items, total, limit: input.limit, offset: input.offset };
    },

    async overview(ctx, input) {
      const { target } = ctx;
      const schema = await schemas.find(target);
      const requested = input.types === undefined ? undefined : [...new Set(input.types)];
      for (const name of requested ?? []) requireSchemaType(schema, name);
      const names = requested ?? [...(schema?.types.keys() ?? [])];
      if (names.length === 0) return { counts: [] };
      const counted = new Map((await countDocumentsByType(db, target, { types: names })).map((c) => [c.type, c]));
      const counts = names.map((type) => counted.get(type) ?? { type, total: 0, published: 0, draft: 0, deleted: 0 });
      return { counts };
    },

    async digest(ctx, input) {
      const { target } = ctx;
      // A preview token reads its own draft only, never the list of every document.
      if (previewClaimsOf(ctx.principal)) {
        throw new CmsError('FORBIDDEN', 'A preview token reads its own draft only, not the digest of every document.');
      }
      const schema = await schemas.find(target);
      const requested = input.types === undefined ? undefined : [...new Set(input.types)];
      for (const name of requested ?? []) requireSchemaType(schema, name);
      const names = requested ?? [...(schema?.types.keys() ?? [])];
      if (names.length === 0) return { documents: [] };
      return { documents: await listDigestRows(db, target, names) };
    },

    async listVariants(ctx, input) {
      const variants = await listVariantRows(db, ctx.target, input.documentId);
      if (variants.length === 0) throw notFound(`Document ${input.documentId}`);
      return variants;
    },
  };
}

/** A release preview of a document the release would leave unpublished (or unpublishes). */
function notInRelease(documentId: string, release: string): CmsError {
  return new CmsError(
    'NOT_FOUND',
    `Document ${documentId} would not be published once release ${release} is out: it is not published and the release does not publish it, or the release unpublishes it.`,
    { release },
  );
}

/**
 * A published read of a document that has only a draft (never published, or unpublished): still
 * NOT_FOUND, but saying that a draft exists and how to see it.
 */
function draftOnly(documentId: string): CmsError {
  return new CmsError(
    'NOT_FOUND',
    `Document ${documentId} has no published version; a draft exists. Publish it, or read the draft with draft=true (needs content:read:draft).`,
    { draft: true, published: false },
  );
}
