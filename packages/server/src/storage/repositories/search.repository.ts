/**
 * Full-text search over documents (GET /api/v1/search): PostgreSQL text search, which PGlite runs too.
 * The vectors are expressions over the row, indexed by migration 0016; plans in docs/performance.md
 * "Search". Every statement filters by project and environment. What is searched is what a reader
 * sees: frontmatter strings that are exactly a UUID (reference ids) are left out (`cms_search_text`).
 * Migrations 0009 and 0016 name this file by its former name, `document-search.repository.ts`
 * (landed migrations are never edited).
 */
import type { Queryable } from '../db.js';
import type { Scope } from './document-row.js';

/**
 * The searchable text of the published side: frontmatter string values but ids weigh A, the body B.
 * Must stay character-for-character the expression of `documents_search_published` (migration
 * 0016, modulo the `d.` alias), or the planner cannot use the index.
 */
export const PUBLISHED_VECTOR = `(setweight(to_tsvector('simple'::regconfig, coalesce(cms_search_text(d.published_frontmatter), '')), 'A')
  || setweight(to_tsvector('simple'::regconfig, coalesce(d.published_body, '')), 'B'))`;

/** The draft side; the expression of `documents_search_draft` (migration 0016). */
export const DRAFT_VECTOR = `(setweight(to_tsvector('simple'::regconfig, coalesce(cms_search_text(d.draft_frontmatter), '')), 'A')
  || setweight(to_tsvector('simple'::regconfig, d.draft_body), 'B'))`;

/** Frontmatter string values but ids, then the body, as one text for the snippet (the vector's words, in order). */
function snippetSource(frontmatter: string, body: string): string {
  return `concat_ws(' ', cms_search_text(${frontmatter}), ${body})`;
}

const QUERY = `websearch_to_tsquery('simple'::regconfig, $3)`;

/** What a search selects. */
export interface SearchFilter {
  /** The user's query, in web-search syntax (`"phrase"`, `-not`, `or`); never a syntax error. */
  query: string;
  /** Search drafts (every live document) instead of published content (live, published documents). */
  draft: boolean;
  /** Types to search: the schema's, or the one asked for. */
  types: readonly string[];
  /** Locales to search; absent searches all. */
  locales?: readonly string[];
  /** `ts_headline` options of the snippet. */
  headlineOptions: string;
}

/** One hit; `score` is `ts_rank`, higher is better. */
export interface SearchHitRow {
  documentId: string;
  type: string;
  path: string;
  locale: string;
  snippet: string;
  score: number;
}

/**
 * A page of hits, best first (ties by id), and the exact number of hits, in one statement: the
 * matches are found once (GIN bitmap scan) and ranked into a CTE that both the count and the page
 * read; snippets are built for the page's rows only.
 */
export async function searchDocuments(
  db: Queryable,
  scope: Scope,
  filter: SearchFilter,
  page: { limit: number; offset: number },
): Promise<{ hits: SearchHitRow[]; total: number }> {
  const vector = filter.draft ? DRAFT_VECTOR : PUBLISHED_VECTOR;
  const source = filter.draft
    ? snippetSource('d.draft_frontmatter', 'd.draft_body')
    : snippetSource('d.published_frontmatter', 'd.published_body');
  const result = await db.query<SearchHitRow & { total: number }>(
    `with matched as (
       select d.id, ts_rank(${vector}, ${QUERY}) as score
       from documents d
       where d.project_id = $1 and d.environment_id = $2 and not d.is_deleted
         ${filter.draft ? '' : 'and d.published_version is not null'}
         and d.type = any($4::text[])
         and ($5::text[] is null or d.locale = any($5::text[]))
         and ${vector} @@ ${QUERY}
     ),
     page as (select m.id, m.score from matched m order by m.score desc, m.id limit $6 offset $7)
     select t.total, d.id as "documentId", d.type, d.path, d.locale, p.score,
       btrim(regexp_replace(ts_headline('simple'::regconfig, ${source}, ${QUERY}, $8), '\\s+', ' ', 'g')) as snippet
     from (select count(*)::int as total from matched) t
     left join page p on true
     left join documents d on d.id = p.id and d.project_id = $1 and d.environment_id = $2
     order by p.score desc, p.id`,
    [
      scope.projectId,
      scope.environmentId,
      filter.query,
      filter.types,
      filter.locales ?? null,
      page.limit,
      page.offset,
      filter.headlineOptions,
    ],
  );
  const total = result.rows[0]?.total ?? 0;
  const hits = result.rows
    .filter((row) => row.documentId !== null)
    .map(({ total: _total, ...hit }) => ({ ...hit, score: Number(hit.score) }));
  return { hits, total };
}
