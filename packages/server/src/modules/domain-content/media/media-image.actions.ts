import { mediaImageRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { MediaImageService } from './media-image.service.js';

/**
 * A variant's bytes never change under its ETag, but the variant a url names does when the focal
 * point or a preset changes: caches keep it a day, then revalidate (a 304 when nothing changed),
 * serving the copy they hold meanwhile (docs/api.md "Image transforms").
 */
export const MEDIA_IMAGE_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=2592000';

/**
 * `GET /api/v1/media/{id}/image`: no routing headers, so it works in `<img src>`; credentials are
 * optional (presets only without them). Answers 304 when `If-None-Match` names the variant.
 */
export function mediaImageActions(deps: { images: MediaImageService }): AnyAction[] {
  const { images } = deps;
  return [
    defineAction({
      route: mediaImageRoute,
      permissions: [],
      studio: { visibility: 'hidden' },
      cli: { visibility: 'hidden' },
      handler: async ({ params, query }, ctx, { request, reply }) => {
        const started = performance.now();
        const answer = await images.resolve(ctx, params.id, query, request.headers.accept);
        const headers: Record<string, string> = {
          etag: answer.etag,
          'cache-control': MEDIA_IMAGE_CACHE_CONTROL,
          'x-content-type-options': 'nosniff',
          'cross-origin-resource-policy': 'cross-origin',
          ...(answer.negotiated ? { vary: 'Accept' } : {}),
        };
        if (matches(request.headers['if-none-match'], answer.etag)) return reply.code(304).headers(headers).send();
        // A full transform queue refuses with SERVICE_UNAVAILABLE and its own Retry-After.
        const opened = await answer.open();
        const { body } = opened;
        if (typeof (body as { destroy?: unknown }).destroy === 'function' && !Buffer.isBuffer(body)) {
          reply.raw.once('close', () => (body as NodeJS.ReadableStream & { destroy(): void }).destroy());
        }
        return reply
          .code(200)
          .headers({
            ...headers,
            'content-type': answer.contentType,
            'content-length': String(opened.sizeBytes),
            // Time to the bytes (lookup, and the transform on a miss): the bench's server time.
            'server-timing': `variant;desc="${opened.cache}";dur=${(performance.now() - started).toFixed(1)}`,
          })
          .send(body);
      },
    }),
  ];
}

function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}
