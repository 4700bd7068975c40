import {
  contentPublishRoute,
  contentUnpublishRoute,
  contentVersionsGetRoute,
  contentVersionsListRoute,
  contentVersionsRestoreRoute,
} from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { DocumentLifecycleService } from './document-lifecycle.service.js';
import type { DocumentVersionsService } from './document-versions.service.js';

/** Publishing and version history routes (interface.md "Content endpoints"). */
export function documentVersionActions(
  lifecycle: DocumentLifecycleService,
  versions: DocumentVersionsService,
): AnyAction[] {
  return [
    defineAction({
      route: contentPublishRoute,
      permissions: ['content:publish'],
      handler: async (input, ctx) => lifecycle.publish(ctx, input),
    }),
    defineAction({
      route: contentUnpublishRoute,
      permissions: ['content:publish'],
      handler: async (input, ctx) => lifecycle.unpublish(ctx, input),
    }),
    defineAction({
      route: contentVersionsListRoute,
      permissions: ['content:read'],
      handler: async ({ params, query }, ctx) => versions.list(ctx, { ...params, ...query }),
    }),
    defineAction({
      route: contentVersionsGetRoute,
      permissions: ['content:read'],
      handler: async ({ params }, ctx) => versions.get(ctx, params),
    }),
    defineAction({
      route: contentVersionsRestoreRoute,
      permissions: ['content:write'],
      handler: async ({ params }, ctx) => versions.restore(ctx, params),
    }),
  ];
}
