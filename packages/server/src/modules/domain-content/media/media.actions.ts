import { mediaDeleteRoute, mediaGetRoute, mediaListRoute, mediaUpdateRoute, mediaUploadRoute } from '@cms/core';
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
      handler: (input, ctx) => media.list(ctx, input),
    }),
    defineAction({
      route: mediaUploadRoute,
      permissions: ['media:upload'],
      setupScope: multipartUploadScope(maxUploadBytes),
      cli: { inputMode: 'file' },
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
      handler: (input, ctx) => media.get(ctx, input),
    }),
    defineAction({
      route: mediaUpdateRoute,
      permissions: ['media:upload'],
      handler: (input, ctx) => media.update(ctx, input),
    }),
    defineAction({
      route: mediaDeleteRoute,
      permissions: ['media:delete'],
      handler: (input, ctx) => media.delete(ctx, input),
    }),
  ];
}
