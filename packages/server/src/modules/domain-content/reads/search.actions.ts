import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import { localeHeaderSchema } from './content-reads.schemas.js';
import { searchHitSchema, searchQuerySchema } from './search.schemas.js';
import type { SearchInput, SearchService } from './search.service.js';

type SearchQuery = Omit<SearchInput, 'headerLocale'>;

/** The search action (decisions.md §4, docs/api.md "Search"); the handler calls one service method. */
export function searchActions(service: SearchService): AnyAction[] {
  return [
    defineAction<unknown, SearchQuery>({
      id: 'content.search',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/search',
      summary: 'Full-text search of documents: published content by default, drafts with draft=true',
      permissions: ['content:read'],
      target: 'environment',
      request: { query: searchQuerySchema, headers: localeHeaderSchema },
      response: { status: 200, envelope: 'paginated', schema: searchHitSchema },
      cli: { alias: 'content search', inputMode: 'flags' },
      handler: ({ query }, ctx, { request }) => {
        const header = request.headers['x-cms-locale'];
        return service.search(ctx, { ...query, ...(typeof header === 'string' ? { headerLocale: header } : {}) });
      },
    }),
  ];
}
