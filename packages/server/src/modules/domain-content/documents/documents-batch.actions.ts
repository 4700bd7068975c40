import { contentBatchRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { DocumentsBatchService } from './documents-batch.service.js';

/** `POST /content/batch`: the draft-write scopes of create and update (decisions.md §3), since it does only those. */
export function documentBatchActions(batch: DocumentsBatchService): AnyAction[] {
  return [
    defineAction({
      route: contentBatchRoute,
      permissions: [],
      anyPermissions: ['content:write', 'content:write:draft'],
      handler: async (input, ctx) => batch.apply(ctx, input),
    }),
  ];
}
