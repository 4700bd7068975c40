import {
  type ActionInput,
  type contentSearchRoute,
  type Page,
  SEARCH_RANKED_CANDIDATES,
  SEARCH_TITLE_CANDIDATES,
  type SearchHit,
} from '@cms/core';
import type { EnvironmentContext } from '../../../http/request-context.js';
import type { Queryable } from '../../../storage/db.js';
import { type SearchFilter, searchDocuments } from '../../../storage/repositories/search.repository.js';
import { DEFAULT_LOCALE } from '../documents/path-rules.js';
import type { SchemaReader } from '../schema/schema-reader.js';
import { requireSchemaType } from '../schema/schema-reader.js';
import { assertCanReadDraft, requestedLocale } from './read-rules.js';

/** `GET /search` as the service takes it: the query as validated (core's contract) and `X-CMS-Locale`. */
export type SearchInput = ActionInput<typeof contentSearchRoute>['query'] & {
  /** `X-CMS-Locale`, used when the `locale` query is absent. */
  headerLocale?: string;
};

/** Full-text search over the documents of one environment. */
export interface SearchService {
  search(ctx: EnvironmentContext, input: SearchInput): Promise<Page<SearchHit>>;
}

/** Most words of a snippet (`ts_headline` MaxWords); matches sit between `«` and `»`. */
const SNIPPET_MAX_WORDS = 30;
const SNIPPET_MIN_WORDS = 10;
/**
 * Plain-text markers, not `<mark>`: a snippet is text a client escapes like any other, so content
 * that contains markup can never turn into HTML through it (docs/api.md "Search").
 */
const HEADLINE_OPTIONS = `StartSel=«, StopSel=», MaxWords=${SNIPPET_MAX_WORDS}, MinWords=${SNIPPET_MIN_WORDS}, ShortWord=2`;

/** Shortest last word matched as a prefix: one letter would match most of any collection. */
const MIN_PREFIX_LENGTH = 2;

/**
 * The last word of a query as a prefix, when the user is still typing it: the query ends in letters or
 * digits that are not inside quotes and not excluded (`-word`). `a or gra` keeps its `or`.
 */
export function lastWordPrefix(query: string): SearchFilter['prefix'] {
  const match = /(^|[\s(])([\p{L}\p{N}]+)$/u.exec(query);
  if (!match?.[2] || match[2].length < MIN_PREFIX_LENGTH) return undefined;
  if ((query.match(/"/g)?.length ?? 0) % 2 === 1) return undefined;
  const before = query.slice(0, query.length - match[2].length).trimEnd();
  const or = /(^|\s)or$/i.exec(before);
  return {
    word: match[2].toLowerCase(),
    rest: or ? before.slice(0, before.length - 2).trimEnd() : before,
    join: or ? 'or' : 'and',
  };
}

/** Creates the search service. A search is one statement, outside transactions. */
export function createSearchService(deps: { db: Queryable; schemas: SchemaReader }): SearchService {
  const { db, schemas } = deps;
  return {
    async search(ctx, input) {
      const { target } = ctx;
      if (input.draft) assertCanReadDraft(ctx);
      const schema = await schemas.find(target);
      // Like the overview, only types of the effective schema are searched (docs/api.md "Search").
      const types =
        input.type === undefined
          ? [...(schema?.types.keys() ?? [])]
          : [requireSchemaType(schema, input.type).type.name];
      const locale = requestedLocale(input);
      if (types.length === 0)
        return { items: [], total: 0, limit: input.limit, offset: input.offset, totalIsCapped: false };
      // Non-localized documents have no variants and ignore the locale, as on GET /content (docs/api.md).
      const prefix = lastWordPrefix(input.q);
      const locales = locale === undefined ? undefined : [...new Set([locale, DEFAULT_LOCALE])];
      const { hits, total, capped } = await searchDocuments(
        db,
        target,
        {
          query: input.q,
          ...(prefix ? { prefix } : {}),
          draft: input.draft,
          types,
          ...(locales === undefined ? {} : { locales }),
          ...(input.published === undefined ? {} : { published: input.published }),
          ...(input.hasUnpublishedChanges === undefined ? {} : { hasUnpublishedChanges: input.hasUnpublishedChanges }),
          headlineOptions: HEADLINE_OPTIONS,
        },
        { limit: input.limit, offset: input.offset },
        { candidates: SEARCH_RANKED_CANDIDATES, titleCandidates: SEARCH_TITLE_CANDIDATES },
      );
      return { items: hits, total, limit: input.limit, offset: input.offset, totalIsCapped: capped };
    },
  };
}
