import {
  contentDigestRoute,
  contentGetRoute,
  contentListRoute,
  contentOverviewRoute,
  contentVariantsListRoute,
} from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { ContentReadsService } from './content-reads.service.js';

/** The content read actions (interface.md "Content endpoints"); handlers call one service method. */
export function contentReadsActions(service: ContentReadsService): AnyAction[] {
  return [
    defineAction({
      route: contentListRoute,
      permissions: ['content:read'],
      handler: (input, ctx) => service.list(ctx, input),
    }),
    defineAction({
      route: contentOverviewRoute,
      permissions: ['content:read'],
      handler: (input, ctx) => service.overview(ctx, input),
    }),
    defineAction({
      route: contentDigestRoute,
      permissions: ['content:read', 'content:read:draft'],
      handler: (input, ctx) => service.digest(ctx, input),
    }),
    defineAction({
      route: contentGetRoute,
      permissions: ['content:read'],
      handler: (input, ctx) => service.get(ctx, input),
    }),
    defineAction({
      route: contentVariantsListRoute,
      permissions: ['content:read'],
      handler: (input, ctx) => service.listVariants(ctx, input),
    }),
  ];
}
