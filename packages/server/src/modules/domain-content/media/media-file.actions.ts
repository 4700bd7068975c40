import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import { MEDIA_FILE_PARAMS_SCHEMA } from './media.schemas.js';
import type { MediaService } from './media.service.js';
import { MEDIA_FILE_PATH_PREFIX } from './media-asset.js';
import { sendMediaFile } from './media-file-response.js';

interface MediaFileParams {
  projectId: string;
  environmentId: string;
  mediaId: string;
  '*': string;
}

/**
 * The file behind an asset's `url`. Public, with no routing headers, so it works in `<img src>`:
 * the url itself is the capability (docs/api.md "Media"), and all four parts must name the row.
 */
export function mediaFileActions(deps: { media: MediaService }): AnyAction[] {
  const { media } = deps;
  return [
    defineAction<MediaFileParams>({
      id: 'media.file',
      kind: 'query',
      method: 'GET',
      path: `${MEDIA_FILE_PATH_PREFIX}/{projectId}/{environmentId}/{mediaId}/*`,
      summary: 'Download a media file (the asset url; supports Range, ETag and If-None-Match)',
      permissions: [],
      target: 'none',
      auth: 'public',
      request: { params: MEDIA_FILE_PARAMS_SCHEMA },
      response: { status: 200, envelope: 'raw' },
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
