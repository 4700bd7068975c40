/**
 * The read side of documents: get, list, overview counts, variants and reference targets. Every
 * statement is one indexed query (migration 0006; plans in docs/performance.md "Content reads")
 * and filters by project and environment.
 */
import type { Queryable } from '../db.js';
import { DOCUMENT_COLUMNS, type DocumentRow, type Scope } from './document-row.js';

/** The locale of documents of non-localized types. */
const DEFAULT_LOCALE = '__cms_default__';

/** Sortable columns of the content list, by their wire name. */
const SORT_COLUMNS = { createdAt: 'created_at', updatedAt: 'updated_at', path: 'path' } as const;

/** A sort key of the content list. */
export type DocumentSort = keyof typeof SORT_COLUMNS;

/** What a content list selects; absent filters do not apply. */
export interface DocumentListFilter {
  type: string;
  /** Published reads see only live published documents, and filter on published content. */
  published: boolean;
  /** `published=` query filter: true only published, false only not published. */
  isPublished?: boolean;
  /** Include soft-deleted documents (`isDeleted=true`). */
  includeDeleted: boolean;
  hasUnpublishedChanges?: boolean;
  locale?: string;
  path?: string;
  slug?: string;
}

/** Order and window of a content list; ties are broken by id in the same direction. */
export interface DocumentListPage {
  sort: DocumentSort;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** One page of rows and the exact number of rows matching the filter. */
export interface DocumentRowPage {
  rows: DocumentRow[];
  total: number;
}

/** A referenced document as resolving needs it; `frontmatter` is the draft or the published one. */
export interface ReferencedRow {
  id: string;
  type: string;
  path: string;
  isDeleted: boolean;
  publishedVersion: number | null;
  frontmatter: Record<string, unknown> | null;
}

/** Document counts of one type (GET /content/overview). */
export interface TypeCounts {
  type: string;
  total: number;
  published: number;
  draft: number;
  deleted: number;
}

/** One locale variant of a translation group. */
export interface VariantRow {
  documentId: string;
  locale: string;
  path: string;
  version: number;
  publishedVersion: number | null;
  hasUnpublishedChanges: boolean;
  updatedAt: Date;
}

/**
 * A non-deleted document by id, or, with `locale`, the variant of its translation group in that
 * locale; a non-localized document (`__cms_default__`) has no variants and answers for any locale.
 */
export async function findReadableDocument(
  db: Queryable,
  scope: Scope,
  where: { id: string; locale?: string },
): Promise<DocumentRow | null> {
  if (where.locale === undefined) {
    const result = await db.query<DocumentRow>(
      `select ${DOCUMENT_COLUMNS} from documents d
       where d.project_id = $1 and d.environment_id = $2 and d.id = $3 and not d.is_deleted`,
      [scope.projectId, scope.environmentId, where.id],
    );
    return result.rows[0] ?? null;
  }
  const result = await db.query<DocumentRow>(
    `select ${DOCUMENT_COLUMNS} from documents d
     where d.project_id = $1 and d.environment_id = $2 and not d.is_deleted
       and d.translation_group_id = (
         select g.translation_group_id from documents g
         where g.project_id = $1 and g.environment_id = $2 and g.id = $3 and not g.is_deleted)
       and d.locale in ($4, '${DEFAULT_LOCALE}')
     order by d.locale = $4 desc limit 1`,
    [scope.projectId, scope.environmentId, where.id, where.locale],
  );
  return result.rows[0] ?? null;
}

/** The WHERE clause of a content list on table alias `alias`, appending its values to `params`. */
function listConditions(alias: string, filter: DocumentListFilter, params: unknown[]): string {
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions = [
    `${alias}.project_id = $1`,
    `${alias}.environment_id = $2`,
    `${alias}.type = ${add(filter.type)}`,
  ];
  if (!filter.includeDeleted) conditions.push(`not ${alias}.is_deleted`);
  if (filter.published) conditions.push(`${alias}.published_version is not null`);
  if (filter.isPublished !== undefined) {
    conditions.push(`${alias}.published_version is ${filter.isPublished ? 'not null' : 'null'}`);
  }
  if (filter.hasUnpublishedChanges !== undefined) {
    conditions.push(`${filter.hasUnpublishedChanges ? '' : 'not '}${alias}.has_unpublished_changes`);
  }
  if (filter.locale !== undefined) conditions.push(`${alias}.locale = ${add(filter.locale)}`);
  if (filter.path !== undefined) conditions.push(`${alias}.path = ${add(filter.path)}`);
  if (filter.slug !== undefined) {
    const column = filter.published ? 'published_frontmatter' : 'draft_frontmatter';
    conditions.push(`(${alias}.${column} ->> 'slug') = ${add(filter.slug)}`);
  }
  return conditions.join(' and ');
}

/**
 * The total from the per-type counters (migration 0010) when the filter is one they keep: every live
 * or every published document of a type, optionally of one locale. Other filters count rows.
 */
function countedTotalQuery(filter: DocumentListFilter, params: unknown[]): string | null {
  const simple =
    !filter.includeDeleted &&
    filter.isPublished === undefined &&
    filter.hasUnpublishedChanges === undefined &&
    filter.path === undefined &&
    filter.slug === undefined;
  if (!simple) return null;
  params.push(filter.type);
  const conditions = ['c.project_id = $1', 'c.environment_id = $2', `c.type = $${params.length}`];
  if (filter.locale !== undefined) {
    params.push(filter.locale);
    conditions.push(`c.locale = $${params.length}`);
  }
  const column = filter.published ? 'published' : 'live';
  return `select coalesce(sum(c.${column}), 0)::int as total from document_counts c where ${conditions.join(' and ')}`;
}

function orderBy(alias: string, page: Pick<DocumentListPage, 'sort' | 'order'>): string {
  const direction = page.order === 'asc' ? 'asc' : 'desc';
  return `${alias}.${SORT_COLUMNS[page.sort]} ${direction}, ${alias}.id ${direction}`;
}

/**
 * A page of documents and the exact total, in one statement (one snapshot): the total comes from
 * the per-type counters when the filter allows, else from an index-only count; the page's ids come
 * from an index-only scan, then only the page's rows are read by primary key, so a
 * deep offset skips index entries instead of table rows. An empty page still returns the total.
 */
export async function listDocumentRows(
  db: Queryable,
  scope: Scope,
  filter: DocumentListFilter,
  page: DocumentListPage,
): Promise<DocumentRowPage> {
  const params: unknown[] = [scope.projectId, scope.environmentId];
  const totalQuery =
    countedTotalQuery(filter, params) ??
    `select count(*)::int as total from documents c where ${listConditions('c', filter, params)}`;
  const paged = listConditions('p', filter, params);
  params.push(page.limit, page.offset);
  const [limit, offset] = [`$${params.length - 1}`, `$${params.length}`];
  const result = await db.query<DocumentRow & { total: number }>(
    `select t.total, ${DOCUMENT_COLUMNS}
     from (${totalQuery}) t
     left join lateral (
       select p.id from documents p where ${paged} order by ${orderBy('p', page)} limit ${limit} offset ${offset}
     ) page on true
     left join documents d on d.id = page.id and d.project_id = $1 and d.environment_id = $2
     order by ${orderBy('d', page)}`,
    params,
  );
  const total = result.rows[0]?.total ?? 0;
  const rows = result.rows.filter((row) => row.id !== null).map(({ total: _total, ...row }) => row as DocumentRow);
  return { rows, total };
}

/** The documents with these ids (deleted ones too) with their draft or published frontmatter. */
export async function findReferencedRows(
  db: Queryable,
  scope: Scope,
  where: { ids: readonly string[]; draft: boolean },
): Promise<ReferencedRow[]> {
  if (where.ids.length === 0) return [];
  const result = await db.query<ReferencedRow>(
    `select d.id, d.type, d.path, d.is_deleted as "isDeleted", d.published_version as "publishedVersion",
       ${where.draft ? 'd.draft_frontmatter' : 'd.published_frontmatter'} as frontmatter
     from documents d
     where d.project_id = $1 and d.environment_id = $2 and d.id = any($3::uuid[])`,
    [scope.projectId, scope.environmentId, where.ids],
  );
  return result.rows;
}

/**
 * Counts per type: total and deleted, published (live with a published version) and draft (live,
 * never published or with unpublished changes). Types without documents are absent.
 */
export async function countDocumentsByType(
  db: Queryable,
  scope: Scope,
  where: { types?: readonly string[] },
): Promise<TypeCounts[]> {
  const result = await db.query<TypeCounts>(
    `select d.type,
       count(*) filter (where not d.is_deleted)::int as total,
       count(*) filter (where not d.is_deleted and d.published_version is not null)::int as published,
       count(*) filter (where not d.is_deleted
         and (d.published_version is null or d.has_unpublished_changes))::int as draft,
       count(*) filter (where d.is_deleted)::int as deleted
     from documents d
     where d.project_id = $1 and d.environment_id = $2 and ($3::text[] is null or d.type = any($3::text[]))
     group by d.type`,
    [scope.projectId, scope.environmentId, where.types ?? null],
  );
  return result.rows;
}

/** The non-deleted variants of the translation group of a non-deleted document, by locale. */
export async function listVariantRows(db: Queryable, scope: Scope, documentId: string): Promise<VariantRow[]> {
  const result = await db.query<VariantRow>(
    `select d.id as "documentId", d.locale, d.path, d.version, d.published_version as "publishedVersion",
       d.has_unpublished_changes as "hasUnpublishedChanges", d.updated_at as "updatedAt"
     from documents d
     where d.project_id = $1 and d.environment_id = $2 and not d.is_deleted
       and d.translation_group_id = (
         select g.translation_group_id from documents g
         where g.project_id = $1 and g.environment_id = $2 and g.id = $3 and not g.is_deleted)
     order by d.locale, d.id`,
    [scope.projectId, scope.environmentId, documentId],
  );
  return result.rows;
}
