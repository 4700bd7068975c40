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
      handler: async ({ params, body }, ctx) =>
        lifecycle.publish(ctx, {
          documentId: params.documentId,
          ...(body?.changeSummary !== undefined ? { changeSummary: body.changeSummary } : {}),
        }),
    }),
    defineAction({
      route: contentUnpublishRoute,
      permissions: ['content:publish'],
      handler: async ({ params }, ctx) => lifecycle.unpublish(ctx, params),
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
