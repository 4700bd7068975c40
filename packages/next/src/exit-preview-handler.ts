/**
 * `exitPreviewHandler`: leaves the preview (draft mode off, the previewed release forgotten) and
 * redirects on the site.
 * @example
 * // app/api/draft/exit/route.ts
 * export const GET = exitPreviewHandler();
 */
import { draftMode } from 'next/headers.js';
import { NextResponse } from 'next/server.js';
import { forgetRelease } from './release-cookie.js';
import { requestSite, safeRedirect } from './safe-redirect.js';

/** What `exitPreviewHandler` takes. */
export interface ExitPreviewHandlerOptions {
  /** Where to go when the request names no same-site `redirect`; default `/`. */
  fallbackPath?: string;
  /** Turns draft mode off; default Next's `(await draftMode()).disable()`. */
  disableDraftMode?: () => void | Promise<void>;
}

/** `GET /api/draft/exit[?redirect=/path]`: turns draft mode off, forgets the release, redirects on the site. */
export function exitPreviewHandler(options: ExitPreviewHandlerOptions = {}) {
  return async (request: Request): Promise<Response> => {
    const url = requestSite(request);
    if (options.disableDraftMode) await options.disableDraftMode();
    else (await draftMode()).disable();
    const target =
      safeRedirect(url.searchParams.get('redirect'), url) ??
      safeRedirect(options.fallbackPath ?? '/', url) ??
      new URL('/', url);
    const response = NextResponse.redirect(target, 307);
    response.headers.set('cache-control', 'no-store');
    forgetRelease(response, url);
    return response;
  };
}
