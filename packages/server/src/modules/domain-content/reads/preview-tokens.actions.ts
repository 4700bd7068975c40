import { contentPreviewTokensCreateRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { PreviewTokensService } from './preview-tokens.service.js';

/** `POST /content/{documentId}/preview-token` (interface.md "Content endpoints", decisions.md §5). */
export function previewTokensActions(service: PreviewTokensService): AnyAction[] {
  return [
    defineAction({
      route: contentPreviewTokensCreateRoute,
      permissions: ['content:read:draft'],
      handler: ({ params, body }, ctx) =>
        service.issue(ctx, {
          documentId: params.documentId,
          ...(body?.previewUrl === undefined ? {} : { previewUrl: body.previewUrl }),
          ...(body?.release === undefined ? {} : { release: body.release }),
        }),
    }),
  ];
}
