import { mediaDeleteRoute, mediaGetRoute, mediaListRoute, mediaUploadRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { MediaService } from './media.service.js';
import { multipartUploadScope, openUpload } from './media-upload-reader.js';

/** The media endpoints of interface.md "Media endpoints". */
export function mediaActions(deps: { media: MediaService; maxUploadBytes: number }): AnyAction[] {
  const { media, maxUploadBytes } = deps;
  return [
    defineAction({
      route: mediaListRoute,
      permissions: ['media:read'],
      cli: { alias: 'media list', inputMode: 'flags' },
      handler: ({ query }, ctx) => media.list(ctx, query),
    }),
    defineAction({
      route: mediaUploadRoute,
      permissions: ['media:upload'],
      setupScope: multipartUploadScope(maxUploadBytes),
      cli: { alias: 'media upload', inputMode: 'file' },
      // The body is a stream, read by the service as it arrives: the one handler that needs the request.
      handler: async (_input, ctx, { request }) => {
        const upload = await openUpload(request, maxUploadBytes);
        try {
          return await media.upload(ctx, upload.source);
        } catch (error: unknown) {
          throw upload.failed(error);
        }
      },
    }),
    defineAction({
      route: mediaGetRoute,
      permissions: ['media:read'],
      handler: ({ params }, ctx) => media.get(ctx, params.id),
    }),
    defineAction({
      route: mediaDeleteRoute,
      permissions: ['media:delete'],
      handler: ({ params }, ctx) => media.delete(ctx, params.id),
    }),
  ];
}
