import {
  releasesAddItemsRoute,
  releasesCreateRoute,
  releasesGetRoute,
  releasesListRoute,
  releasesPublishRoute,
  releasesRemoveItemRoute,
  releasesRevertRoute,
  releasesRunDueRoute,
  releasesScheduleRoute,
  releasesUnscheduleRoute,
} from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { ReleasesService } from './releases.service.js';

/** Release routes (decisions.md §8): `content:write` edits a release, `content:publish` sends it out or back. */
export function releaseActions(releases: ReleasesService): AnyAction[] {
  return [
    defineAction({
      route: releasesCreateRoute,
      permissions: ['content:write'],
      handler: async ({ body }, ctx) => releases.create(ctx, body),
    }),
    defineAction({
      route: releasesListRoute,
      permissions: ['content:read:draft'],
      handler: async ({ query }, ctx) => ({
        ...(await releases.list(ctx, query)),
        limit: query.limit,
        offset: query.offset,
      }),
    }),
    defineAction({
      route: releasesGetRoute,
      permissions: ['content:read:draft'],
      handler: async ({ params }, ctx) => releases.get(ctx, params.id),
    }),
    defineAction({
      route: releasesAddItemsRoute,
      permissions: ['content:write'],
      handler: async ({ params, body }, ctx) => releases.addItems(ctx, params.id, body),
    }),
    defineAction({
      route: releasesRemoveItemRoute,
      permissions: ['content:write'],
      handler: async ({ params }, ctx) => releases.removeItem(ctx, params.id, params.documentId),
    }),
    defineAction({
      route: releasesPublishRoute,
      permissions: ['content:publish'],
      handler: async ({ params }, ctx) => releases.publish(ctx, params.id),
    }),
    defineAction({
      route: releasesScheduleRoute,
      permissions: ['content:publish'],
      handler: async ({ params, body }, ctx) => releases.schedule(ctx, params.id, body),
    }),
    defineAction({
      route: releasesUnscheduleRoute,
      permissions: ['content:publish'],
      handler: async ({ params }, ctx) => releases.unschedule(ctx, params.id),
    }),
    defineAction({
      route: releasesRevertRoute,
      permissions: ['content:publish'],
      handler: async ({ params }, ctx) => releases.revert(ctx, params.id),
    }),
    defineAction({
      route: releasesRunDueRoute,
      permissions: ['content:publish'],
      handler: async (_input, ctx) => releases.runDue(ctx),
    }),
  ];
}
