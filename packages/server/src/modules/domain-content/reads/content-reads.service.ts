import {
  type ActionInput,
  type ActionMethod,
  type ActionResult,
  CmsError,
  type contentDigestRoute,
  type contentGetRoute,
  type contentListRoute,
  type contentOverviewRoute,
  type contentVariantsListRoute,
  type Document,
  invalidQueryParam,
  notFound,
  type SchemaType,
} from '@cms/core';
import type { EnvironmentContext, Target } from '../../../http/request-context.js';
import type { Queryable } from '../../../storage/db.js';
import {
  countDocumentsByType,
  type DocumentReadRow,
  type DocumentSort,
  findReadableDocument,
  listDigestRows,
  listDocumentRows,
  listVariantRows,
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

type Get = typeof contentGetRoute;
type List = typeof contentListRoute;
type Overview = typeof contentOverviewRoute;
type Digest = typeof contentDigestRoute;
type Variants = typeof contentVariantsListRoute;

/** The routes this service answers, each method declared against its route. */
interface ContentReadRoutes {
  get: ActionMethod<Get, EnvironmentContext>;
  list: ActionMethod<List, EnvironmentContext>;
  overview: ActionMethod<Overview, EnvironmentContext>;
  digest: ActionMethod<Digest, EnvironmentContext>;
  listVariants: ActionMethod<Variants, EnvironmentContext>;
}

/** What the reads need: the database and the schema of each environment. */
export interface ContentReadsDeps {
  db: Queryable;
  schemas: SchemaReader;
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

/** Renders rows; with `resolve`, replaces references by the documents each row's read fetched. */
function render(
  target: Target,
  rows: readonly DocumentReadRow[],
  options: { draft: boolean; release: boolean; type: SchemaType | undefined; resolve: ReadonlySet<string> },
): Document[] {
  const { draft, release, type } = options;
  if (options.resolve.size === 0 || !type) return rows.map((row) => toContentView(row, { target }));
  const subjects = rows.map((row) => ({ type, frontmatter: row.frontmatter ?? {} }));
  const referenced = rows.flatMap((row) => row.referenced ?? []);
  const outcomes = resolveReferences(subjects, referenced, { fields: options.resolve, draft, release });
  return rows.map((row, index) => toContentView(row, { target, ...outcomes[index] }));
}

/**
 * The reads of documents: get, list, overview, digest and variants (interface.md "Content
 * endpoints"). Each takes its route's validated input and answers its route's result. Reads run
 * outside transactions: each is one statement, one snapshot.
 */
export class ContentReadsService implements ContentReadRoutes {
  constructor(private readonly deps: ContentReadsDeps) {}

  async get(ctx: EnvironmentContext, { params, query, headers }: ActionInput<Get>): Promise<ActionResult<Get>> {
    const { db, schemas } = this.deps;
    const { target } = ctx;
    const { documentId } = params;
    const release = await assertReleasePreview(db, ctx, query);
    if (query.draft) assertCanReadDraft(ctx);
    // A release preview token reads any document as its release leaves it, not one draft.
    const preview = release === undefined ? previewClaimsOf(ctx.principal) : null;
    if (preview) assertPreviewRequest(preview, { documentId, draft: query.draft });
    const locale = requestedLocale({ locale: query.locale, headerLocale: headers['x-cms-locale'] });
    const paths = [...new Set(query.resolve ?? [])];
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
      { id: documentId, ...(locale === undefined ? {} : { locale }) },
      {
        draft: query.draft,
        ...(release === undefined ? {} : { release }),
        ...(referencePaths.length > 0 ? { referencePaths } : {}),
      },
    );
    if (!row && release !== undefined) throw notInRelease(documentId, release);
    // Published reads never see a document without a published version (never or no longer published).
    if (!row) throw notFound(`Document ${documentId}`);
    if (!query.draft && release === undefined && row.publishedVersion === null) throw draftOnly(documentId);
    if (preview) assertPreviewMayRead(preview, row);
    if (paths.length === 0) return toContentView(row, { target });
    const type = schema?.types.get(row.type);
    const resolve = assertResolvable(type, row.type, paths);
    const [view] = render(target, [row], { draft: query.draft, release: release !== undefined, type, resolve });
    return view as Document;
  }

  async list(ctx: EnvironmentContext, { query, headers }: ActionInput<List>): Promise<ActionResult<List>> {
    const { db, schemas } = this.deps;
    const { target } = ctx;
    const release = await assertReleasePreview(db, ctx, query);
    if (query.draft) assertCanReadDraft(ctx);
    const type = requireSchemaType(await schemas.find(target), query.type).type;
    if (query.slug !== undefined && !Object.hasOwn(type.fields, 'slug')) {
      throw invalidQueryParam({ slug: `type "${type.name}" has no slug field, so it cannot be filtered by slug` });
    }
    const resolve = assertResolvable(type, type.name, [...new Set(query.resolve ?? [])]);
    // A locale selects among variants, so it applies to localized types only (docs/api.md).
    const locale = type.localized
      ? requestedLocale({ locale: query.locale, headerLocale: headers['x-cms-locale'] })
      : undefined;
    const { rows, total } = await listDocumentRows(
      db,
      target,
      {
        type: type.name,
        published: !query.draft,
        ...(release === undefined ? {} : { release }),
        includeDeleted: query.isDeleted,
        ...(query.published === undefined ? {} : { isPublished: query.published }),
        ...(query.hasUnpublishedChanges === undefined ? {} : { hasUnpublishedChanges: query.hasUnpublishedChanges }),
        ...(locale === undefined ? {} : { locale }),
        ...(query.path === undefined ? {} : { path: query.path }),
        ...(query.slug === undefined ? {} : { slug: query.slug }),
        ...(query.updatedSince === undefined ? {} : { updatedSince: new Date(query.updatedSince) }),
      },
      { sort: query.sort, order: query.order ?? defaultOrder(query.sort), limit: query.limit, offset: query.offset },
      {
        ...(resolve.size > 0 ? { referencePaths: referenceJsonPaths(type, resolve) } : {}),
        withBody: query.includeBody,
      },
    );
    const items = render(target, rows, { draft: query.draft, release: release !== undefined, type, resolve });
    return {
      items: query.includeBody ? items : items.map(withoutText),
      total,
      limit: query.limit,
      offset: query.offset,
    };
  }

  async overview(ctx: EnvironmentContext, { query }: ActionInput<Overview>): Promise<ActionResult<Overview>> {
    const names = await this.typeNames(ctx, query.type);
    if (names.length === 0) return { counts: [] };
    const counted = new Map(
      (await countDocumentsByType(this.deps.db, ctx.target, { types: names })).map((c) => [c.type, c]),
    );
    const counts = names.map((type) => counted.get(type) ?? { type, total: 0, published: 0, draft: 0, deleted: 0 });
    return { counts };
  }

  /** Every live document's revisions, without content, for sync clients (drafts: needs content:read:draft). */
  async digest(ctx: EnvironmentContext, { query }: ActionInput<Digest>): Promise<ActionResult<Digest>> {
    // A preview token reads its own draft only, never the list of every document.
    if (previewClaimsOf(ctx.principal)) {
      throw new CmsError('FORBIDDEN', 'A preview token reads its own draft only, not the digest of every document.');
    }
    const names = await this.typeNames(ctx, query.type);
    if (names.length === 0) return { documents: [] };
    return { documents: await listDigestRows(this.deps.db, ctx.target, names) };
  }

  async listVariants(ctx: EnvironmentContext, { params }: ActionInput<Variants>): Promise<ActionResult<Variants>> {
    const variants = await listVariantRows(this.deps.db, ctx.target, params.documentId);
    if (variants.length === 0) throw notFound(`Document ${params.documentId}`);
    return variants;
  }

  /** The types a count asks for, each checked to be in the schema (SCHEMA_NOT_FOUND); all of them when none. */
  private async typeNames(ctx: EnvironmentContext, types: readonly string[] | undefined): Promise<string[]> {
    const schema = await this.deps.schemas.find(ctx.target);
    const requested = types === undefined ? undefined : [...new Set(types)];
    for (const name of requested ?? []) requireSchemaType(schema, name);
    return requested ?? [...(schema?.types.keys() ?? [])];
  }
}

/** A document of a list read with `includeBody=false`: no body, no source (they were not read). */
function withoutText({ body: _body, source: _source, ...summary }: Document): Omit<Document, 'body' | 'source'> {
  return summary;
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
