/**
 * `draftModeHandler`: the preview route the Studio's preview URL points at. It checks that the preview
 * token is for the site's own project and environment, verifies it by reading the draft with it (the
 * server checks signature, expiry and staleness), enables draft mode, remembers the release a release
 * preview token names (`cms_release`, read by `previewReadOptions`) and redirects to the document's page.
 * @example
 * // app/api/draft/route.ts
 * export const GET = draftModeHandler({ pathOf: (document) => `/posts/${document.path}` });
 */
import { createPreviewClient, type Document, isCmsError, type PreviewClaims, readPreviewClaims } from '@cms/sdk';
import { draftMode } from 'next/headers.js';
import { NextResponse } from 'next/server.js';
import { forgetRelease, isReleaseId, rememberRelease } from './release-cookie.js';
import { env, plain } from './responses.js';
import { requestSite, safeRedirect } from './safe-redirect.js';

/** What `draftModeHandler` takes. */
export interface DraftModeHandlerOptions {
  /** The CMS server; default `CMS_SERVER_URL`. */
  serverUrl?: string;
  /** The site's project: a token of any other is refused. Default `CMS_PROJECT`, else `default`. */
  project?: string;
  /** The site's environment: a token of any other is refused. Default `CMS_ENVIRONMENT`, else `production`. */
  environment?: string;
  /** The page of a document; default `/<path>` (`/<locale>/<path>` with `localePrefix`). */
  pathOf?: (document: Document) => string;
  /** Prefix the default page path with the document's locale (not for unlocalized documents). */
  localePrefix?: boolean;
  /** Query parameter holding the token; default `token`. */
  tokenParam?: string;
  /** Turns draft mode on; default Next's `(await draftMode()).enable()`. */
  enableDraftMode?: () => void | Promise<void>;
  fetch?: typeof fetch;
}

/** The locale documents of a type that is not localized carry (docs/api.md). */
const UNLOCALIZED = '__cms_default__';

/** A token the server accepted: the document it opens and the release it previews, if any. */
interface VerifiedPreview {
  document: Document;
  release: string | undefined;
}

const INVALID = 'Invalid preview token: open the preview from the Studio again.';

/** The claims, or a refusal: unreadable, of another project or environment, or a malformed release. */
function checkClaims(token: string, options: DraftModeHandlerOptions): PreviewClaims | Response {
  let claims: PreviewClaims;
  try {
    claims = readPreviewClaims(token);
  } catch {
    return plain(401, INVALID);
  }
  if (typeof claims !== 'object' || claims === null) return plain(401, INVALID);
  const project = options.project ?? env('CMS_PROJECT') ?? 'default';
  const environment = options.environment ?? env('CMS_ENVIRONMENT') ?? 'production';
  // Before any request: the server would accept a genuine token of another project, and draft mode
  // would then show this site's drafts to whoever can mint a token anywhere on the server.
  if (claims.project !== project || claims.environment !== environment)
    return plain(
      403,
      `Preview refused: the token is for project "${String(claims.project)}", environment "${String(claims.environment)}"; ` +
        `this site shows project "${project}", environment "${environment}". Open the preview from this project's Studio.`,
    );
  if (claims.release !== undefined && !isReleaseId(claims.release))
    return plain(
      401,
      'Invalid preview token: its release is not a release id. Open the preview from the Studio again.',
    );
  return claims;
}

/**
 * Verifies a preview token by reading with it: the draft it names, or for a release preview token the
 * document as the release would publish it. The server checks the signature over every claim, so a
 * token whose project or environment was rewritten to pass `checkClaims` fails here.
 */
async function verifyPreview(
  token: string,
  serverUrl: string,
  options: DraftModeHandlerOptions,
): Promise<VerifiedPreview | Response> {
  const claims = checkClaims(token, options);
  if (claims instanceof Response) return claims;
  try {
    const preview = createPreviewClient({
      baseUrl: serverUrl,
      token,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const document = await preview.get({ cache: 'no-store' });
    return { document, release: claims.release };
  } catch (error) {
    if (isCmsError(error) && error.status >= 400 && error.status < 500)
      return plain(401, `Preview refused (${error.code}): ${error.message}`);
    throw error;
  }
}

/** The default page of a document: `/<path>`, or `/<locale>/<path>` with `localePrefix` for a localized one. */
function defaultPath(document: Document, options: DraftModeHandlerOptions): string {
  const prefixed = options.localePrefix && document.locale !== UNLOCALIZED;
  return prefixed ? `/${document.locale}/${document.path}` : `/${document.path}`;
}

/** The page to open: a same-site `redirect`, else `pathOf`, else the document's path; else the home page. */
function previewTarget(url: URL, document: Document, options: DraftModeHandlerOptions): URL {
  return (
    safeRedirect(url.searchParams.get('redirect'), url) ??
    safeRedirect(options.pathOf ? options.pathOf(document) : defaultPath(document, options), url) ??
    new URL('/', url)
  );
}

/**
 * `GET /api/draft?token=...[&redirect=/path]`: verifies the token, enables draft mode, remembers the
 * release of a release preview token (a plain one forgets it), redirects.
 */
export function draftModeHandler(options: DraftModeHandlerOptions = {}) {
  return async (request: Request): Promise<Response> => {
    const url = requestSite(request);
    const token = url.searchParams.get(options.tokenParam ?? 'token');
    if (!token) return plain(401, 'Missing preview token: open the preview from the Studio again.');
    const serverUrl = options.serverUrl ?? env('CMS_SERVER_URL');
    if (!serverUrl) return plain(500, 'draftModeHandler: set serverUrl or CMS_SERVER_URL.');
    const verified = await verifyPreview(token, serverUrl, options);
    if (verified instanceof Response) return verified;
    if (options.enableDraftMode) await options.enableDraftMode();
    else (await draftMode()).enable();
    const response = NextResponse.redirect(previewTarget(url, verified.document, options), 307);
    response.headers.set('cache-control', 'no-store');
    if (verified.release === undefined) forgetRelease(response, url);
    else rememberRelease(response, url, verified.release);
    return response;
  };
}
