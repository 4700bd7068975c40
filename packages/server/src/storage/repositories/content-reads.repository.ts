/**
 * The read side of documents: get, list, overview counts, variants and reference targets. Every
 * statement is one indexed query (migration 0006; plans in docs/performance.md "Content reads")
 * and filters by project and environment.
 */
import type { Queryable } from '../db.js';
import { contentColumns, type DocumentContentRow, type Scope } from './document-row.js';
import {
  releaseActionOf,
  releaseContentColumns,
  releaseFrontmatter,
  releaseItemJoin,
  visibleInRelease,
} from './release-view.js';

/**
 * Content reads are the hottest statements, and their texts come from a bounded set (filters, sort,
 * resolve or not): prepared once per connection, they skip parsing and planning (QueryOptions). They
 * write nothing, so one whose connection failed under it runs again on another.
 */
const PREPARED = { prepare: true, readOnly: true } as const;

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
  /**
   * A release preview (release-view.ts): the documents and content the release would leave live;
   * `published` is then ignored.
   */
  release?: string;
  /**
   * `published=` query filter (interface.md "List query parameters"): true only documents with at
   * least one published version (published now or unpublished since), false only never-published ones.
   */
  isPublished?: boolean;
  /** Include soft-deleted documents (`isDeleted=true`). */
  includeDeleted: boolean;
  hasUnpublishedChanges?: boolean;
  locale?: string;
  path?: string;
  slug?: string;
  /** Only rows updated strictly after this instant. */
  updatedSince?: Date;
}

/** Order and window of a content list; ties are broken by id in the same direction. */
export interface DocumentListPage {
  sort: DocumentSort;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
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

/** A document read with its draft or published content, and the documents it references when asked. */
export interface DocumentReadRow extends DocumentContentRow {
  /** The documents (deleted ones too) whose ids the `references` paths hold; absent when not asked. */
  referenced?: ReferencedRow[];
}

/** What a read selects: the draft or published content, and which references to fetch with it. */
export interface ReadShape {
  draft: boolean;
  /** A release preview (release-view.ts): the release's view of the document; `draft` is then ignored. */
  release?: string;
  /**
   * SQL/JSON paths into the frontmatter whose string values are document ids to fetch in the same
   * statement (`$."seo"."author"`, `$."related"[*]`); none: no references are fetched.
   */
  referencePaths?: readonly string[];
  /** False: rows without body and source (lists that show fields only); default true. */
  withBody?: boolean;
}

/** One page of rows and the exact number of rows matching the filter. */
export interface DocumentRowPage {
  rows: DocumentReadRow[];
  total: number;
}

/** Document counts of one type (GET /content/overview). */
export interface TypeCountsRow {
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

const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/**
 * A non-deleted document by id, or, with `locale`, the variant of its translation group in that
 * locale; a non-localized document (`__cms_default__`) has no variants and answers for any locale.
 */
export async function findReadableDocument(
  db: Queryable,
  scope: Scope,
  where: { id: string; locale?: string },
  shape: ReadShape,
): Promise<DocumentReadRow | null> {
  const params: unknown[] = [scope.projectId, scope.environmentId, where.id];
  if (where.locale !== undefined) params.push(where.locale);
  let select = `select ${contentColumns(shape.draft)} from documents d`;
  let visible = '';
  if (shape.release !== undefined) {
    params.push(shape.release);
    select = `select ${releaseContentColumns('ri.action')} from documents d ${releaseItemJoin('d', 'ri', `$${params.length}`)}`;
    visible = ` and ${visibleInRelease('d', 'ri.action')}`;
  }
  const found =
    where.locale === undefined
      ? `${select} where d.project_id = $1 and d.environment_id = $2 and d.id = $3 and not d.is_deleted${visible}`
      : `${select}
     where d.project_id = $1 and d.environment_id = $2 and not d.is_deleted${visible}
       and d.translation_group_id = (
         select g.translation_group_id from documents g
         where g.project_id = $1 and g.environment_id = $2 and g.id = $3 and not g.is_deleted)
       and d.locale in ($4, '${DEFAULT_LOCALE}')
     order by d.locale = $4 desc limit 1`;
  // A single read is a page of one: its references come the way a list's do.
  const references = pageReferences(shape, params);
  const sql = references ? `with listed as (${found}) select listed.*, ${references} as referenced from listed` : found;
  const result = await db.query<DocumentReadRow>(sql, params, PREPARED);
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
  const action = filter.release === undefined ? null : releaseActionOf(alias, add(filter.release));
  if (action) conditions.push(visibleInRelease(alias, action));
  else if (filter.published) conditions.push(`${alias}.published_version is not null`);
  if (filter.isPublished !== undefined) {
    // `version` is the latest published version number, 0 until the first publish.
    conditions.push(`${alias}.version ${filter.isPublished ? '> 0' : '= 0'}`);
  }
  if (filter.hasUnpublishedChanges !== undefined) {
    conditions.push(`${filter.hasUnpublishedChanges ? '' : 'not '}${alias}.has_unpublished_changes`);
  }
  if (filter.locale !== undefined) conditions.push(`${alias}.locale = ${add(filter.locale)}`);
  if (filter.path !== undefined) conditions.push(`${alias}.path = ${add(filter.path)}`);
  // Answers show milliseconds while the column keeps microseconds: `>= t + 1 ms` compares at the
  // precision a client saw, so the newest document it has is not listed again.
  if (filter.updatedSince !== undefined) {
    conditions.push(`${alias}.updated_at >= ${add(new Date(filter.updatedSince.getTime() + 1))}`);
  }
  if (filter.slug !== undefined) {
    const column = filter.published ? `${alias}.published_frontmatter` : `${alias}.draft_frontmatter`;
    const shown = action ? releaseFrontmatter(alias, action) : column;
    conditions.push(`(${shown} ->> 'slug') = ${add(filter.slug)}`);
  }
  return conditions.join(' and ');
}

/**
 * The total from the per-type counters (migration 0010) when the filter is one they keep: every live
 * or every published document of a type, optionally of one locale. Other filters count rows.
 */
function countedTotalQuery(filter: DocumentListFilter, params: unknown[]): string | null {
  const simple =
    filter.release === undefined &&
    !filter.includeDeleted &&
    filter.isPublished === undefined &&
    filter.hasUnpublishedChanges === undefined &&
    filter.path === undefined &&
    filter.slug === undefined &&
    filter.updatedSince === undefined;
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
 * Published reads (`filter.published`) select the published content, others the draft.
 */
export async function listDocumentRows(
  db: Queryable,
  scope: Scope,
  filter: DocumentListFilter,
  page: DocumentListPage,
  shape: Omit<ReadShape, 'draft'> = {},
): Promise<DocumentRowPage> {
  const params: unknown[] = [scope.projectId, scope.environmentId];
  const totalQuery =
    countedTotalQuery(filter, params) ??
    `select count(*)::int as total from documents c where ${listConditions('c', filter, params)}`;
  const paged = listConditions('p', filter, params);
  params.push(page.limit, page.offset);
  const [limit, offset] = [`$${params.length - 1}`, `$${params.length}`];
  const draft = !filter.published;
  const withBody = shape.withBody ?? true;
  let columns = contentColumns(draft, withBody);
  let itemJoin = '';
  if (filter.release !== undefined) {
    params.push(filter.release);
    columns = releaseContentColumns('ri.action', withBody);
    itemJoin = releaseItemJoin('d', 'ri', `$${params.length}`);
  }
  const references = pageReferences(
    { ...shape, draft, ...(filter.release ? { release: filter.release } : {}) },
    params,
  );
  const position = references ? `row_number() over (order by ${orderBy('d', page)}) as position, ` : '';
  const listed = `select ${position}t.total, ${columns}
     from (${totalQuery}) t
     left join lateral (
       select p.id from documents p where ${paged} order by ${orderBy('p', page)} limit ${limit} offset ${offset}
     ) page on true
     left join documents d on d.id = page.id and d.project_id = $1 and d.environment_id = $2 ${itemJoin}`;
  const sql = references
    ? // The page's references in one lookup, carried by its first row.
      `with listed as (${listed})
       select listed.*, case when listed.position = 1 then ${references} end as referenced
       from listed order by listed.position`
    : `${listed} order by ${orderBy('d', page)}`;
  const result = await db.query<DocumentReadRow & { total: number; position?: number }>(sql, params, PREPARED);
  const total = result.rows[0]?.total ?? 0;
  const rows = result.rows
    .filter((row) => row.id !== null)
    .map(({ total: _total, position: _position, ...row }) => row as DocumentReadRow);
  return { rows, total };
}

/**
 * The documents referenced at `shape.referencePaths` by any row of the CTE `listed`, as a json
 * array: one primary-key lookup for the whole page. Only values shaped like a UUID are cast (a
 * CASE, so the cast never sees another). Null when no references are asked for.
 */
function pageReferences(shape: ReadShape, params: unknown[]): string | null {
  if (!shape.referencePaths?.length) return null;
  let content = shape.draft ? 'r.draft_frontmatter' : 'r.published_frontmatter';
  let itemJoin = '';
  if (shape.release !== undefined) {
    // In a release preview a target shows as the release leaves it: null frontmatter is absent.
    params.push(shape.release);
    itemJoin = releaseItemJoin('r', 'ri2', `$${params.length}`);
    content = releaseFrontmatter('r', 'ri2.action');
  }
  params.push(shape.referencePaths);
  return `(select coalesce(json_agg(json_build_object('id', r.id, 'type', r.type, 'path', r.path,
         'isDeleted', r.is_deleted, 'publishedVersion', r.published_version, 'frontmatter', ${content})), '[]')
       from documents r ${itemJoin}
       where r.project_id = $1 and r.environment_id = $2 and r.id = any(array(
         select case when v.id ~* '${UUID_PATTERN}' then v.id::uuid end
         from listed l, unnest($${params.length}::jsonpath[]) as p(path),
           lateral jsonb_path_query(l.frontmatter, p.path) as j(value),
           lateral (select j.value #>> '{}' as id) v)))`;
}

/**
 * Counts per type: total and deleted, published (live with a published version) and draft (live,
 * never published or with unpublished changes). Types without documents are absent.
 */
export async function countDocumentsByType(
  db: Queryable,
  scope: Scope,
  where: { types?: readonly string[] },
): Promise<TypeCountsRow[]> {
  const result = await db.query<TypeCountsRow>(
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

/** One live document without its content (GET /content/digest). */
export interface DigestRow {
  documentId: string;
  translationGroupId: string;
  type: string;
  path: string;
  locale: string;
  format: 'md' | 'mdx';
  draftRevision: number;
  version: number;
  publishedVersion: number | null;
  hasUnpublishedChanges: boolean;
  updatedAt: Date;
}

/**
 * Every live document of these types with its revisions and no content: what a sync client compares
 * with its manifest. Reads only the index-covered columns of each row, never the draft or published
 * content (most of a row's bytes).
 */
export async function listDigestRows(db: Queryable, scope: Scope, types: readonly string[]): Promise<DigestRow[]> {
  const result = await db.query<DigestRow>(
    `select d.id as "documentId", d.translation_group_id as "translationGroupId", d.type, d.path, d.locale,
       d.format, d.draft_revision as "draftRevision", d.version, d.published_version as "publishedVersion",
       d.has_unpublished_changes as "hasUnpublishedChanges", d.updated_at as "updatedAt"
     from documents d
     where d.project_id = $1 and d.environment_id = $2 and d.type = any($3::text[]) and not d.is_deleted
     order by d.type, d.path, d.locale, d.id`,
    [scope.projectId, scope.environmentId, types],
    PREPARED,
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
