import {
  contentDigestRoute,
  contentGetRoute,
  contentListRoute,
  contentOverviewRoute,
  contentVariantsListRoute,
} from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { ContentReadsService } from './content-reads.service.js';

/** `X-CMS-Locale` as sent and validated, for the service input (absent stays absent). */
const headerLocale = (value: string | undefined) => (value === undefined ? {} : { headerLocale: value });

/** The content read actions (interface.md "Content endpoints"); handlers call one service method. */
export function contentReadsActions(service: ContentReadsService): AnyAction[] {
  return [
    defineAction({
      route: contentListRoute,
      permissions: ['content:read'],
      handler: ({ query, headers }, ctx) => service.list(ctx, { ...query, ...headerLocale(headers['x-cms-locale']) }),
    }),
    defineAction({
      route: contentOverviewRoute,
      permissions: ['content:read'],
      handler: ({ query }, ctx) => service.overview(ctx, query.type === undefined ? {} : { types: query.type }),
    }),
    defineAction({
      route: contentDigestRoute,
      permissions: ['content:read', 'content:read:draft'],
      handler: ({ query }, ctx) => service.digest(ctx, query.type === undefined ? {} : { types: query.type }),
    }),
    defineAction({
      route: contentGetRoute,
      permissions: ['content:read'],
      handler: ({ params, query, headers }, ctx) =>
        service.get(ctx, { ...query, documentId: params.documentId, ...headerLocale(headers['x-cms-locale']) }),
    }),
    defineAction({
      route: contentVariantsListRoute,
      permissions: ['content:read'],
      handler: ({ params }, ctx) => service.listVariants(ctx, { documentId: params.documentId }),
    }),
  ];
}
