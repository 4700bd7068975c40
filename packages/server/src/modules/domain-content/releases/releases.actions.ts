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
      handler: async (input, ctx) => releases.create(ctx, input),
    }),
    defineAction({
      route: releasesListRoute,
      permissions: ['content:read:draft'],
      handler: async (input, ctx) => releases.list(ctx, input),
    }),
    defineAction({
      route: releasesGetRoute,
      permissions: ['content:read:draft'],
      handler: async (input, ctx) => releases.get(ctx, input),
    }),
    defineAction({
      route: releasesAddItemsRoute,
      permissions: ['content:write'],
      handler: async (input, ctx) => releases.addItems(ctx, input),
    }),
    defineAction({
      route: releasesRemoveItemRoute,
      permissions: ['content:write'],
      handler: async (input, ctx) => releases.removeItem(ctx, input),
    }),
    defineAction({
      route: releasesPublishRoute,
      permissions: ['content:publish'],
      handler: async (input, ctx) => releases.publish(ctx, input),
    }),
    defineAction({
      route: releasesScheduleRoute,
      permissions: ['content:publish'],
      handler: async (input, ctx) => releases.schedule(ctx, input),
    }),
    defineAction({
      route: releasesUnscheduleRoute,
      permissions: ['content:publish'],
      handler: async (input, ctx) => releases.unschedule(ctx, input),
    }),
    defineAction({
      route: releasesRevertRoute,
      permissions: ['content:publish'],
      handler: async (input, ctx) => releases.revert(ctx, input),
    }),
    defineAction({
      route: releasesRunDueRoute,
      permissions: ['content:publish'],
      handler: async (input, ctx) => releases.runDue(ctx, input),
    }),
  ];
}
