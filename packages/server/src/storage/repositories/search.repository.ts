/**
 * Full-text search over documents (GET /api/v1/search): PostgreSQL text search, which PGlite runs too.
 * The vectors are columns kept by a trigger and indexed (migration 0048); plans in docs/performance.md
 * "Search". Every statement filters by project and environment. What is searched is what a reader
 * sees: frontmatter strings that are exactly a UUID (reference ids) are left out (`cms_search_text`).
 * Migrations 0009 and 0016 name this file by its former name, `document-search.repository.ts`
 * (landed migrations are never edited). The last word of a query is matched as a prefix (search as you type).
 */
import { DOCUMENT_TITLE_KEYS, type SearchHit } from '@cms/core';
import type { Queryable } from '../db.js';
import type { Scope } from './document-row.js';

/**
 * The searchable vector of each side of a document, kept in a column by a trigger (migration 0048,
 * whose `cms_search_vector` is 0031's expression): the title weighs A, the other frontmatter text B,
 * the body C, and the parts of compound identifiers D (`cms_search_parts`, migration 0031:
 * `document.querySelector` also as `document`, `querySelector`, `query`, `selector`). A test checks
 * the plans use the indexes. This is the published side, indexed by `documents_search_published`.
 */
export const PUBLISHED_VECTOR = 'd.published_search';

/** The draft side, indexed by `documents_search_draft`. */
export const DRAFT_VECTOR = 'd.draft_search';

/** Frontmatter string values but ids, then the body, as one text for the snippet (the vector's words, in order). */
function snippetSource(frontmatter: string, body: string): string {
  return `concat_ws(' ', cms_search_text(${frontmatter}), ${body})`;
}

/**
 * The tsquery of a search and its parameters: the words in web-search syntax, and the last word as a
 * prefix (`word:*`) when the user is still typing it, joined by `and` (`&&`) or, after a trailing `or`,
 * by `||`. Parameter `$3` is always used (a query alone, or a prefix alone); `$13` only with both.
 */
function tsQuery(filter: SearchFilter): { sql: string; params: string[] } {
  const words = `websearch_to_tsquery('simple'::regconfig, $3)`;
  if (!filter.prefix) return { sql: words, params: [filter.query] };
  const pattern = `${filter.prefix.word}:*`;
  if (filter.prefix.rest === '') return { sql: `to_tsquery('simple'::regconfig, $3)`, params: [pattern] };
  const join = filter.prefix.join === 'or' ? '||' : '&&';
  return { sql: `(${words} ${join} to_tsquery('simple'::regconfig, $13))`, params: [filter.prefix.rest, pattern] };
}

/** What a search selects. */
export interface SearchFilter {
  /** The user's query, in web-search syntax (`"phrase"`, `-not`, `or`); never a syntax error. */
  query: string;
  /**
   * The last word as typed so far, matched as a prefix (`gra` finds `grace`): `rest` is the query
   * without it, `join` how the word joins the rest. Absent when the query ends in a finished word.
   */
  prefix?: { word: string; rest: string; join: 'and' | 'or' };
  /** Search drafts (every live document) instead of published content (live, published documents). */
  draft: boolean;
  /** Types to search: the schema's, or the one asked for. */
  types: readonly string[];
  /** Locales to search; absent searches all. */
  locales?: readonly string[];
  /** Only documents that are (true) or are not (false) published; absent: both. */
  published?: boolean;
  /** Only documents with (true) or without (false) unpublished changes; absent: both. */
  hasUnpublishedChanges?: boolean;
  /** `ts_headline` options of the snippet. */
  headlineOptions: string;
}

/**
 * The first of DOCUMENT_TITLE_KEYS that holds a non-blank string in `frontmatter`, else null: what a
 * list calls the document.
 */
function titleOf(frontmatter: string): string {
  const choices = DOCUMENT_TITLE_KEYS.map(
    (key) =>
      `case when jsonb_typeof(${frontmatter} -> '${key}') = 'string' and btrim(${frontmatter} ->> '${key}') <> '' then ${frontmatter} ->> '${key}' end`,
  );
  return `coalesce(${choices.join(', ')})`;
}

/** How many candidates a search ranks (docs/api.md "Search", docs/benchmarks.md "Search at scale"). */
export interface SearchBounds {
  /** Matches ranked as the scan meets them (no order); one more is taken to tell that there are more. */
  candidates: number;
  /** Title matches taken from the title index besides them (migration 0061). */
  titleCandidates: number;
}

/** A page of hits and the number of hits that can be paged through. */
export interface SearchPage {
  hits: SearchHit[];
  /** Hits ranked: every match when `capped` is false, else the bounded candidate set. */
  total: number;
  /** More documents matched than were ranked: `total` counts the candidates only. */
  capped: boolean;
}

/**
 * A page of hits, best first (ties by id), and the number of hits, in one statement. Ranking reads each
 * ranked vector (`ts_rank`, often from TOAST), so only a bounded set of candidates is ranked: the first
 * `candidates + 1` matches the scan meets (no order: the GIN bitmap's rows in table order, or for a word
 * in most documents a sequential scan that stops early; an order such as the id walks rows at random
 * and read 19,000 buffers where this reads 700 at 100,000 documents, docs/benchmarks.md), each ranked
 * as it is found, and up to `titleCandidates` documents whose title matches (the title index), since a
 * title match ranks highest. When no more than `candidates` documents match, the candidates are every
 * match and `total` is exact. Otherwise the page ranks the candidates only, `total` counts them and
 * `capped` is set: pages walk one ranked list, the same for the same rows in the same table order, so
 * offsets neither repeat nor skip a hit while the documents do not change (a write, or PostgreSQL
 * starting a sequential scan where a concurrent one is, may pick other candidates, as a write would).
 * Snippets are built for the page's rows only.
 */
export async function searchDocuments(
  db: Queryable,
  scope: Scope,
  filter: SearchFilter,
  page: { limit: number; offset: number },
  bounds: SearchBounds,
): Promise<SearchPage> {
  const vector = filter.draft ? DRAFT_VECTOR : PUBLISHED_VECTOR;
  const title = filter.draft ? 'cms_search_title(d.draft_frontmatter)' : 'cms_search_title(d.published_frontmatter)';
  const {
    sql: QUERY,
    params: [words, pattern],
  } = tsQuery(filter);
  const source = filter.draft
    ? snippetSource('d.draft_frontmatter', 'd.draft_body')
    : snippetSource('d.published_frontmatter', 'd.published_body');
  // The partial search indexes' own conditions, so the planner can use them.
  const live = `d.project_id = $1 and d.environment_id = $2 and not d.is_deleted
         ${filter.draft ? '' : 'and d.published_version is not null'}
         and d.type = any($4::text[])
         and ($5::text[] is null or d.locale = any($5::text[]))
         and ($11::boolean is null or (d.published_version is not null) = $11::boolean)
         and ($12::boolean is null or d.has_unpublished_changes = $12::boolean)`;
  const result = await db.query<SearchHit & { total: number; capped: boolean }>(
    `with found as materialized (
       select d.id, ts_rank(${vector}, ${QUERY}) as score from documents d where ${live} and ${vector} @@ ${QUERY}
       limit $9
     ),
     titled as materialized (
       select d.id, ts_rank(${vector}, ${QUERY}) as score from documents d
       where ${live} and ${title} @@ ${QUERY} and ${vector} @@ ${QUERY}
       limit $10
     ),
     ranked as materialized (select id, score from found union select id, score from titled),
     page as (select r.id, r.score from ranked r order by r.score desc, r.id limit $6 offset $7)
     select t.total, t.capped, d.id as "documentId", d.type, d.path, d.locale,
       ${titleOf(filter.draft ? 'd.draft_frontmatter' : 'd.published_frontmatter')} as title,
       d.published_version as "publishedVersion", d.has_unpublished_changes as "hasUnpublishedChanges", p.score,
       btrim(regexp_replace(ts_headline('simple'::regconfig, ${source}, ${QUERY}, $8), '\\s+', ' ', 'g')) as snippet
     from (select (select count(*)::int from ranked) as total, (select count(*) from found) >= $9 as capped) t
     left join page p on true
     left join documents d on d.id = p.id and d.project_id = $1 and d.environment_id = $2
     order by p.score desc, p.id`,
    [
      scope.projectId,
      scope.environmentId,
      words,
      filter.types,
      filter.locales ?? null,
      page.limit,
      page.offset,
      filter.headlineOptions,
      bounds.candidates + 1,
      bounds.titleCandidates,
      filter.published ?? null,
      filter.hasUnpublishedChanges ?? null,
      ...(pattern === undefined ? [] : [pattern]),
    ],
  );
  const first = result.rows[0];
  const hits = result.rows
    .filter((row) => row.documentId !== null)
    .map(({ total: _total, capped: _capped, ...hit }) => ({ ...hit, score: Number(hit.score) }));
  return { hits, total: first?.total ?? 0, capped: first?.capped ?? false };
}
