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
      handler: ({ query }, ctx) => media.list(ctx, query),
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
      handler: ({ params }, ctx) => media.get(ctx, params.id),
    }),
    defineAction({
      route: mediaUpdateRoute,
      permissions: ['media:upload'],
      handler: ({ params, body }, ctx) => media.update(ctx, params.id, body),
    }),
    defineAction({
      route: mediaDeleteRoute,
      permissions: ['media:delete'],
      handler: ({ params }, ctx) => media.delete(ctx, params.id),
    }),
  ];
}
