import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import { documentIdParamsSchema } from '../documents/documents.schemas.js';
import { previewTokenBodySchema, previewTokenSchema } from './content-reads.schemas.js';
import type { PreviewTokensService } from './preview-tokens.service.js';

/** `POST /content/{documentId}/preview-token` (interface.md "Content endpoints", decisions.md §5). */
export function previewTokensActions(service: PreviewTokensService): AnyAction[] {
  return [
    defineAction<{ documentId: string }, unknown, { previewUrl?: string } | null | undefined>({
      id: 'content.previewTokens.create',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/content/{documentId}/preview-token',
      summary: 'Issue a short-lived preview token for the draft of a document',
      permissions: ['content:read:draft'],
      target: 'environment',
      request: { params: documentIdParamsSchema, body: previewTokenBodySchema },
      response: { status: 200, envelope: 'single', schema: previewTokenSchema },
      handler: ({ params, body }, ctx) =>
        service.issue(ctx, {
          documentId: params.documentId,
          ...(body?.previewUrl === undefined ? {} : { previewUrl: body.previewUrl }),
        }),
    }),
  ];
}
