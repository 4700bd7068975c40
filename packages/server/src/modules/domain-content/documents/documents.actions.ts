import {
  contentCreateRoute,
  contentDeleteRoute,
  contentDuplicateRoute,
  contentRestoreRoute,
  contentUpdateRoute,
} from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { DocumentLifecycleService } from './document-lifecycle.service.js';
import type { DocumentsService } from './documents.service.js';

/**
 * Draft writes may be made with `content:write` or with `content:write:draft` (decisions.md §3:
 * that scope creates and updates drafts only), so these routes need one of the two.
 */
const DRAFT_WRITE = ['content:write', 'content:write:draft'] as const;

/** Document routes: create, update, duplicate, delete, restore (interface.md "Content endpoints"). */
export function documentActions(documents: DocumentsService, lifecycle: DocumentLifecycleService): AnyAction[] {
  return [
    defineAction({
      route: contentCreateRoute,
      permissions: [],
      anyPermissions: DRAFT_WRITE,
      handler: async ({ body, headers }, ctx) =>
        documents.create(ctx, {
          ...body,
          schemaHash: headers['x-cms-schema-hash'],
          localeHeader: headers['x-cms-locale'],
        }),
    }),
    defineAction({
      route: contentUpdateRoute,
      permissions: [],
      anyPermissions: DRAFT_WRITE,
      handler: async ({ params, body, headers }, ctx) =>
        documents.update(ctx, { ...body, documentId: params.documentId, schemaHash: headers['x-cms-schema-hash'] }),
    }),
    defineAction({
      route: contentDuplicateRoute,
      permissions: ['content:write'],
      handler: async ({ params, body }, ctx) =>
        documents.duplicate(ctx, {
          documentId: params.documentId,
          ...(body?.path !== undefined ? { path: body.path } : {}),
        }),
    }),
    defineAction({
      route: contentDeleteRoute,
      permissions: ['content:delete'],
      handler: async (input, ctx) => lifecycle.remove(ctx, input),
    }),
    defineAction({
      route: contentRestoreRoute,
      permissions: ['content:write'],
      handler: async (input, ctx) => lifecycle.restore(ctx, input),
    }),
  ];
}
