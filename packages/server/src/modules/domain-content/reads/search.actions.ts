import { contentSearchRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { SearchService } from './search.service.js';

/** The search action (decisions.md §4, docs/api.md "Search"); the handler calls one service method. */
export function searchActions(service: SearchService): AnyAction[] {
  return [
    defineAction({
      route: contentSearchRoute,
      permissions: ['content:read'],
      handler: ({ query, headers }, ctx) => {
        const header = headers['x-cms-locale'];
        return service.search(ctx, { ...query, ...(header === undefined ? {} : { headerLocale: header }) });
      },
    }),
  ];
}
