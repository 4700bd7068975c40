import { MEDIA_FILE_PATH_PREFIX, type MediaAsset } from '@cms/core';
import type { Target } from '../../../http/request-context.js';
import type { MediaCategory } from '../../../media/media-metadata.js';
import type { MediaRow } from '../../../storage/repositories/media.repository.js';

/** Path prefix of file urls (declared with the file route). */
export { MEDIA_FILE_PATH_PREFIX };

/**
 * The public address of a stored file: `{CMS_PUBLIC_URL}/media/<projectId>/<environmentId>/<mediaId>/<storageName>`.
 * It needs no credentials, so it works in `<img src>`; the random ids make it a capability url
 * (docs/api.md "Media": whoever holds it can read the file until the media is deleted).
 */
export function mediaFileUrl(
  publicUrl: string,
  row: Pick<MediaRow, 'projectId' | 'environmentId' | 'id' | 'storageName'>,
) {
  return `${publicUrl}${MEDIA_FILE_PATH_PREFIX}/${row.projectId}/${row.environmentId}/${row.id}/${encodeURIComponent(row.storageName)}`;
}

/** The API view of a row of the request's target. */
export function toMediaAsset(row: MediaRow, target: Target, publicUrl: string): MediaAsset {
  return {
    id: row.id,
    project: target.projectSlug,
    environment: target.environmentName,
    filename: row.filename,
    mimeType: row.mimeType,
    category: row.category as MediaCategory,
    sizeBytes: row.sizeBytes,
    url: mediaFileUrl(publicUrl, row),
    uploadedBy: row.uploadedBy,
    uploadedAt: row.uploadedAt.toISOString(),
    alt: row.alt,
    width: row.width,
    height: row.height,
    focalPoint: row.focalX !== null && row.focalY !== null ? { x: row.focalX, y: row.focalY } : null,
  };
}
