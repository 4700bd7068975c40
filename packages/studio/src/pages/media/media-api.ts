/**
 * The media library's calls, through the SDK's session client like every other Studio call
 * (`api/sdk.ts`). Uploads use a client of their own whose `fetch` is XMLHttpRequest (`xhr-fetch.ts`),
 * so the page can show each file's progress; headers, CSRF and errors stay the SDK's.
 */
import type { MediaAsset, MediaCategory } from '@cms/core';
import { createClient, type MediaListQuery } from '@cms/sdk';
import { at, type Target, viaSdk } from '../../api/sdk.js';
import { type SendProgress, xhrFetch } from './xhr-fetch.js';

/** Core's wire shape of an asset (with `environment` and `category`, which the SDK's interim type lacks). */
export type { MediaAsset, MediaCategory, MediaListQuery, SendProgress };

/** The categories the server derives at upload (core `MEDIA_CATEGORIES`), in the filter's order. */
export const MEDIA_CATEGORIES: readonly MediaCategory[] = ['image', 'video', 'audio', 'document', 'archive', 'other'];

/** Page size of the library (core `MEDIA_PAGE_DEFAULT`). */
export const MEDIA_PAGE_SIZE = 30;

export const mediaLibrary = {
  list: (target: Target, query: MediaListQuery) => viaSdk(() => at(target).media.list(query)),
  get: (target: Target, id: string) => viaSdk(() => at(target).media.get(id)),
  remove: (target: Target, id: string) => viaSdk(() => at(target).media.delete(id)),
  /** The project's settings: `mediaImageMaxBytes` is the image upload limit (null: none beyond the server's). */
  settings: (target: Target) => viaSdk(() => at({ project: target.project }).projects.settings()),
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
