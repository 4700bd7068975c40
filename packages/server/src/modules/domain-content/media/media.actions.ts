import { type AnyAction, defineAction, singleFileFormSchema } from '../../../actions/define-action.js';
import {
  MEDIA_ASSET_SCHEMA,
  MEDIA_DELETED_SCHEMA,
  MEDIA_ID_PARAMS_SCHEMA,
  MEDIA_LIST_QUERY_SCHEMA,
} from './media.schemas.js';
import type { MediaService } from './media.service.js';
import type { MediaListQuery } from './media-query.js';
import { multipartUploadScope, openUpload, UPLOAD_PART } from './media-upload-reader.js';

/** The media endpoints of interface.md "Media endpoints". */
export function mediaActions(deps: { media: MediaService; maxUploadBytes: number }): AnyAction[] {
  const { media, maxUploadBytes } = deps;
  return [
    defineAction<unknown, MediaListQuery>({
      id: 'media.list',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/media',
      summary: 'List media with filters, sorting and pagination',
      permissions: ['media:read'],
      target: 'environment',
      request: { query: MEDIA_LIST_QUERY_SCHEMA },
      response: { status: 200, envelope: 'paginated', schema: MEDIA_ASSET_SCHEMA },
      cli: { alias: 'media list', inputMode: 'flags' },
      handler: ({ query }, ctx) => media.list(ctx, query),
    }),
    defineAction({
      id: 'media.upload',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/media/upload',
      summary: `Upload a file (multipart/form-data, one part "${UPLOAD_PART}")`,
      permissions: ['media:upload'],
      target: 'environment',
      setupScope: multipartUploadScope(maxUploadBytes),
      request: { multipart: singleFileFormSchema(UPLOAD_PART) },
      response: { status: 201, envelope: 'single', schema: MEDIA_ASSET_SCHEMA },
      cli: { alias: 'media upload', inputMode: 'file' },
      handler: async (_input, ctx, { request }) => {
        const upload = await openUpload(request, maxUploadBytes);
        try {
          return await media.upload(ctx, upload.source);
        } catch (error: unknown) {
          throw upload.failed(error);
        }
      },
    }),
    defineAction<{ id: string }>({
      id: 'media.get',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/media/{id}',
      summary: 'Get one media asset',
      permissions: ['media:read'],
      target: 'environment',
      request: { params: MEDIA_ID_PARAMS_SCHEMA },
      response: { status: 200, envelope: 'single', schema: MEDIA_ASSET_SCHEMA },
      handler: ({ params }, ctx) => media.get(ctx, params.id),
    }),
    defineAction<{ id: string }>({
      id: 'media.delete',
      kind: 'command',
      method: 'DELETE',
      path: '/api/v1/media/{id}',
      summary: 'Delete a media asset and its file; its url stops working at once',
      permissions: ['media:delete'],
      target: 'environment',
      request: { params: MEDIA_ID_PARAMS_SCHEMA },
      response: { status: 200, envelope: 'single', schema: MEDIA_DELETED_SCHEMA },
      handler: ({ params }, ctx) => media.delete(ctx, params.id),
    }),
  ];
}
