/**
 * The media library's calls, through the SDK's session client like every other Studio call
 * (`api/sdk.ts`). Uploads use a client of their own whose `fetch` is XMLHttpRequest (`xhr-fetch.ts`),
 * so the page can show each file's progress; headers, CSRF and errors stay the SDK's.
 */
import type { MediaAsset, MediaCategory } from '@cms/core';
import { createClient, type ImageOptions, imageUrl, type MediaListQuery, type MediaUpdateBody } from '@cms/sdk';
import { at, type Target, viaSdk } from './sdk.js';
import { type SendProgress, xhrFetch } from './xhr-fetch.js';

/** Core's wire shape of an asset (with `environment` and `category`, which the SDK's interim type lacks). */
export type { MediaAsset, MediaCategory, MediaListQuery, SendProgress };

/** The categories the server derives at upload (core `MEDIA_CATEGORIES`), in the filter's order. */
export const MEDIA_CATEGORIES: readonly MediaCategory[] = ['image', 'video', 'audio', 'document', 'archive', 'other'];

/** Page size of the library (core `MEDIA_PAGE_DEFAULT`). */
export const MEDIA_PAGE_SIZE = 30;

/** Image types the server transforms (docs/api.md "Image transforms"); others are shown from their file. */
const TRANSFORMABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif', 'image/tiff']);

/**
 * The address of a transformed image of `asset` (free sizes: the Studio's session holds `media:read`),
 * or the file itself for images the server does not transform (SVG...).
 */
export function imageAddress(asset: Pick<MediaAsset, 'id' | 'url' | 'mimeType'>, options: ImageOptions): string {
  return TRANSFORMABLE.has(asset.mimeType) ? imageUrl(window.location.origin, asset, options) : asset.url;
}

/** An `<img onError>` that shows the file itself when its transformed image is refused (a file that does not decode). */
export function fallBackToFile(asset: Pick<MediaAsset, 'url'>) {
  return (event: { currentTarget: HTMLImageElement }) => {
    if (event.currentTarget.src !== asset.url) event.currentTarget.src = asset.url;
  };
}

/** Grid and picker thumbnails: at most 320×220 (twice the tile, for sharp screens), whole image. */
export const THUMBNAIL: ImageOptions = { w: 320, h: 220, fit: 'inside' };
/** The details preview: at most 800 wide. */
export const PREVIEW: ImageOptions = { w: 800, h: 600, fit: 'inside' };

export const mediaLibrary = {
  list: (target: Target, query: MediaListQuery) => viaSdk(() => at(target).media.list(query)),
  get: (target: Target, id: string) => viaSdk(() => at(target).media.get(id)),
  remove: (target: Target, id: string) => viaSdk(() => at(target).media.delete(id)),
  /** Changes the alt text and/or focal point. */
  update: (target: Target, id: string, body: MediaUpdateBody) => viaSdk(() => at(target).media.update(id, body)),
  /** Everyone who may have uploaded, for the uploader filter (needs `users.manage`). */
  users: () => viaSdk(() => at(null).users.list({ limit: 100 })),
  /** Uploads one file, reporting the bytes sent; `signal` cancels it. */
  upload: (target: Target, file: File, onProgress: (progress: SendProgress) => void, signal: AbortSignal) =>
    viaSdk(() =>
      createClient({
        baseUrl: window.location.origin,
        session: true,
        retries: 0,
        // A large file on a slow line takes as long as it takes; the person can cancel it.
        timeoutMs: 0,
        project: target.project,
        environment: target.environment,
        fetch: xhrFetch(onProgress),
      }).media.upload({ file, signal }),
    ),
};
