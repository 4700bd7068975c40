import { invalidQueryParam, notFound, type Page, type SchemaType } from '@cms/core';
import type { EnvironmentContext, Target } from '../../../http/request-context.js';
import type { Queryable } from '../../../storage/db.js';
import {
  countDocumentsByType,
  type DocumentReadRow,
  type DocumentSort,
  findReadableDocument,
  listDocumentRows,
  listVariantRows,
  type TypeCounts,
  type VariantRow,
} from '../../../storage/repositories/content-reads.repository.js';
import { type DocumentView, toContentView } from '../documents/document-view.js';
import { requireSchemaType, type SchemaReader } from '../schema/schema-reader.js';
import { previewClaimsOf } from './preview-tokens.js';
import { assertCanReadDraft, assertPreviewMayRead, assertPreviewRequest, requestedLocale } from './read-rules.js';
import {
  assertResolvable,
  assertResolvableInSomeType,
  referenceJsonPaths,
  referenceJsonPathsOfAnyType,
  resolveReferences,
} from './reference-resolver.js';

/** `GET /content/{documentId}` as the service takes it. */
export interface GetDocumentInput {
  documentId: string;
  draft: boolean;
  locale?: string;
  /** `X-CMS-Locale`, used when the `locale` query is absent. */
  headerLocale?: string;
  resolve?: readonly string[];
}

/** `GET /content` as the service takes it (validated and defaulted by the query schema). */
export interface ListDocumentsInput {
  type: string;
  locale?: string;
  headerLocale?: string;
  path?: string;
  slug?: string;
  published?: boolean;
  isDeleted: boolean;
  hasUnpublishedChanges?: boolean;
  draft: boolean;
  resolve?: readonly string[];
  limit: number;
  offset: number;
  sort: DocumentSort;
  order?: 'asc' | 'desc';
}

/** The reads of documents: get, list, overview and variants. */
export interface ContentReadsService {
  get(ctx: EnvironmentContext, input: GetDocumentInput): Promise<DocumentView>;
  list(ctx: EnvironmentContext, input: ListDocumentsInput): Promise<Page<DocumentView>>;
  overview(ctx: EnvironmentContext, input: { types?: readonly string[] }): Promise<{ counts: TypeCounts[] }>;
  listVariants(ctx: EnvironmentContext, input: { documentId: string }): Promise<VariantRow[]>;
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
    options: { draft: boolean; type: SchemaType | undefined; resolve: ReadonlySet<string> },
  ): DocumentView[] => {
    const { draft, type } = options;
    if (options.resolve.size === 0 || !type) return rows.map((row) => toContentView(row, { target }));
    const subjects = rows.map((row) => ({ type, frontmatter: row.frontmatter ?? {} }));
    const referenced = rows.flatMap((row) => row.referenced ?? []);
    const outcomes = resolveReferences(subjects, referenced, { fields: options.resolve, draft });
    return rows.map((row, index) => toContentView(row, { target, ...outcomes[index] }));
  };

  return {
    async get(ctx, input) {
      const { target } = ctx;
      if (input.draft) assertCanReadDraft(ctx);
      const preview = previewClaimsOf(ctx.principal);
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
        { draft: input.draft, ...(referencePaths.length > 0 ? { referencePaths } : {}) },
      );
      // Published reads never see a document without a published version (never or no longer published).
      if (!row || (!input.draft && row.publishedVersion === null)) throw notFound(`Document ${input.documentId}`);
      if (preview) assertPreviewMayRead(preview, row);
      if (paths.length === 0) return toContentView(row, { target });
      const type = schema?.types.get(row.type);
      const resolve = assertResolvable(type, row.type, paths);
      const [view] = render(target, [row], { draft: input.draft, type, resolve });
      return view as DocumentView;
    },

    async list(ctx, input) {
      const { target } = ctx;
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
          includeDeleted: input.isDeleted,
          ...(input.published === undefined ? {} : { isPublished: input.published }),
          ...(input.hasUnpublishedChanges === undefined ? {} : { hasUnpublishedChanges: input.hasUnpublishedChanges }),
          ...(locale === undefined ? {} : { locale }),
          ...(input.path === undefined ? {} : { path: input.path }),
          ...(input.slug === undefined ? {} : { slug: input.slug }),
        },
        { sort: input.sort, order: input.order ?? defaultOrder(input.sort), limit: input.limit, offset: input.offset },
        resolve.size > 0 ? { referencePaths: referenceJsonPaths(type, resolve) } : {},
      );
      const items = render(target, rows, { draft: input.draft, type, resolve });
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

    async listVariants(ctx, input) {
      const variants = await listVariantRows(db, ctx.target, input.documentId);
      if (variants.length === 0) throw notFound(`Document ${input.documentId}`);
      return variants;
    },
  };
}
