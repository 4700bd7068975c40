/**
 * `GET /api/v1/search` (decisions.md §4; docs/api.md "Search"). Unknown parameters are rejected
 * (decisions.md §3), booleans accept only `true` and `false`.
 */
import { type Static, Type } from 'typebox';
import { DEFAULT_PAGE_SIZE, LocaleHeadersSchema, MAX_PAGE_SIZE } from './content.routes.js';
import { defineRoute } from './define-route.js';
import { LimitQuery, MAX_LOCALE_LENGTH, Nullable, OffsetQuery, Uuid, WithDefault } from './shapes.js';

/** Longest search query, in characters. */
export const MAX_SEARCH_QUERY_LENGTH = 200;

/**
 * Most matches a search ranks (the first its scan meets), besides the title matches (`SEARCH_TITLE_CANDIDATES`). When
 * more documents match, the answer ranks these candidates only, `pagination.total` counts them and
 * `pagination.totalIsCapped` is true (false otherwise): `hasMore` stays exact for the list that can be
 * paged through, and a narrower query finds the rest (docs/api.md "Search").
 */
export const SEARCH_RANKED_CANDIDATES = 1000;

/** Most documents whose title matches that a search ranks besides `SEARCH_RANKED_CANDIDATES`. */
export const SEARCH_TITLE_CANDIDATES = 1000;

/** Query of `GET /search`: `q` must hold a non-space character (a blank query searches nothing). */
export const SearchQuerySchema = Type.Object(
  {
    q: Type.String({ minLength: 1, maxLength: MAX_SEARCH_QUERY_LENGTH, pattern: '\\S' }),
    type: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    locale: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_LOCALE_LENGTH })),
    draft: WithDefault(Type.Boolean(), false),
    /** Only published (true) or never-published (false) documents, as on `GET /content`. */
    published: Type.Optional(Type.Boolean()),
    /** Only documents with (true) or without (false) unpublished changes, as on `GET /content`. */
    hasUnpublishedChanges: Type.Optional(Type.Boolean()),
    limit: WithDefault(LimitQuery(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE), DEFAULT_PAGE_SIZE),
    offset: WithDefault(OffsetQuery, 0),
  },
  { additionalProperties: false },
);

/**
 * One search hit; `snippet` is plain text with matches between `«` and `»`. `title` (see
 * DOCUMENT_TITLE_KEYS, null when none is set), `publishedVersion` and `hasUnpublishedChanges` are the
 * document's, as on `GET /content`, so a list or picker shows a hit without reading its document.
 */
export const SearchHitSchema = Type.Object({
  documentId: Uuid,
  type: Type.String(),
  path: Type.String(),
  locale: Type.String(),
  title: Nullable(Type.String()),
  publishedVersion: Nullable(Type.Integer()),
  hasUnpublishedChanges: Type.Boolean(),
  snippet: Type.String(),
  score: Type.Number(),
});
export type SearchHit = Static<typeof SearchHitSchema>;

export const contentSearchRoute = defineRoute({
  id: 'content.search',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/search',
  summary: 'Full-text search of documents: published content by default, drafts with draft=true',
  target: 'environment',
  request: { query: SearchQuerySchema, headers: LocaleHeadersSchema },
  // `pagination.totalIsCapped` is always answered here (true or false): see SEARCH_RANKED_CANDIDATES.
  response: { status: 200, envelope: 'paginated', schema: SearchHitSchema },
  errors: ['SCHEMA_NOT_FOUND'],
});
