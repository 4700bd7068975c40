import { mediaFileRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { MediaService } from './media.service.js';
import { sendMediaFile } from './media-file-response.js';

/**
 * The file behind an asset's `url`. Public, with no routing headers, so it works in `<img src>`:
 * the url itself is the capability (docs/api.md "Media"), and all four parts must name the row.
 * The answer streams with conditional and range headers, so the handler uses the request and reply.
 */
export function mediaFileActions(deps: { media: MediaService }): AnyAction[] {
  const { media } = deps;
  return [
    defineAction({
      route: mediaFileRoute,
      permissions: [],
      studio: { visibility: 'hidden' },
      cli: { visibility: 'hidden' },
      handler: async ({ params }, _ctx, { request, reply }) => {
        const row = await media.getFile({
          projectId: params.projectId,
          environmentId: params.environmentId,
          mediaId: params.mediaId,
          storageName: params['*'],
        });
        return sendMediaFile(request, reply, row, media);
      },
    }),
  ];
}
