import type { Page } from '@cms/core';
import type { EnvironmentContext } from '../../../http/request-context.js';
import type { Queryable } from '../../../storage/db.js';
import { type SearchHitRow, searchDocuments } from '../../../storage/repositories/search.repository.js';
import { DEFAULT_LOCALE } from '../documents/path-rules.js';
import type { SchemaReader } from '../schema/schema-reader.js';
import { requireSchemaType } from '../schema/schema-reader.js';
import { assertCanReadDraft, requestedLocale } from './read-rules.js';

/** `GET /search` as the service takes it (validated and defaulted by the query schema). */
export interface SearchInput {
  q: string;
  type?: string;
  locale?: string;
  /** `X-CMS-Locale`, used when the `locale` query is absent. */
  headerLocale?: string;
  draft: boolean;
  limit: number;
  offset: number;
}

/** A search hit as answered. */
export type SearchHit = SearchHitRow;

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
      if (types.length === 0) return { items: [], total: 0, limit: input.limit, offset: input.offset };
      // Non-localized documents have no variants and ignore the locale, as on GET /content (docs/api.md).
      const locales = locale === undefined ? undefined : [...new Set([locale, DEFAULT_LOCALE])];
      const { hits, total } = await searchDocuments(
        db,
        target,
        {
          query: input.q,
          draft: input.draft,
          types,
          ...(locales === undefined ? {} : { locales }),
          headlineOptions: HEADLINE_OPTIONS,
        },
        { limit: input.limit, offset: input.offset },
      );
      return { items: hits, total, limit: input.limit, offset: input.offset };
    },
  };
}
