/**
 * The release a draft-mode session previews, kept in a cookie beside Next's draft mode cookie:
 * `draftModeHandler` sets it for a release preview token and clears it for a plain one,
 * `exitPreviewHandler` clears it, and `previewReadOptions` reads it. httpOnly, `SameSite=Lax`,
 * `Secure` on https, path `/` (the whole site), and a session cookie like draft mode's.
 */
import type { NextResponse } from 'next/server.js';

/** Name of the cookie holding the previewed release's id. */
export const RELEASE_PREVIEW_COOKIE = 'cms_release';

/** A release id as the server issues them: a UUID in the 8-4-4-4-12 hex form. */
const RELEASE_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a value shaped like a release id; anything else never reaches a cookie or a read. */
export function isReleaseId(value: unknown): value is string {
  return typeof value === 'string' && RELEASE_ID_PATTERN.test(value);
}

function cookieAttributes(site: URL) {
  return { httpOnly: true, secure: site.protocol === 'https:', sameSite: 'lax' as const, path: '/' };
}

/** Sets the release cookie on `response` (a redirect of the site at `site`). */
export function rememberRelease(response: NextResponse, site: URL, release: string): void {
  response.cookies.set(RELEASE_PREVIEW_COOKIE, release, cookieAttributes(site));
}

/** Clears the release cookie on `response`: a plain draft preview, or leaving the preview. */
export function forgetRelease(response: NextResponse, site: URL): void {
  response.cookies.set(RELEASE_PREVIEW_COOKIE, '', { ...cookieAttributes(site), maxAge: 0, expires: new Date(0) });
}
