/**
 * Route handlers for the Next.js App Router.
 * - `draftModeHandler`: the preview route the Studio's preview URL points at. It verifies the preview
 *   token by reading the draft with it (the server checks signature, expiry and staleness), enables
 *   draft mode, remembers the release a release preview token names (`cms_release`, read by
 *   `previewReadOptions`) and redirects to the document's page.
 * - `exitPreviewHandler`: leaves the preview (draft mode off, release forgotten) and redirects.
 * - `revalidateHandler`: the webhook route. It verifies the delivery with the SDK's `verifyWebhook`
 *   and revalidates the tags the SDK's reads carry: `cms:<project>:<environment>:<type>` and
 *   `cms:document:<documentId>`.
 * @example
 * // app/api/draft/route.ts
 * export const GET = draftModeHandler({ serverUrl: process.env.CMS_SERVER_URL });
 * // app/api/draft/exit/route.ts
 * export const GET = exitPreviewHandler();
 * // app/api/revalidate/route.ts
 * export const POST = revalidateHandler({ secret: process.env.CMS_WEBHOOK_SECRET });
 */
import {
  type ContentWebhookEvent,
  createPreviewClient,
  type Document,
  documentTag,
  isCmsError,
  typeTag,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from '@cms/sdk';
import { revalidateTag } from 'next/cache.js';
import { draftMode } from 'next/headers.js';
import { NextResponse } from 'next/server.js';
import { forgetRelease, isReleaseId, rememberRelease } from './release-cookie.js';
import { safePath } from './safe-path.js';

/** What `draftModeHandler` takes. */
export interface DraftModeHandlerOptions {
  /** The CMS server; default `CMS_SERVER_URL`. */
  serverUrl?: string;
  /** The page of a document; default `/<path>` (`/<locale>/<path>` with `localePrefix`). */
  pathOf?: (document: Document) => string;
  /** Prefix the default page path with the document's locale. */
  localePrefix?: boolean;
  /** Query parameter holding the token; default `token`. */
  tokenParam?: string;
  /** Turns draft mode on; default Next's `(await draftMode()).enable()`. */
  enableDraftMode?: () => void | Promise<void>;
  fetch?: typeof fetch;
}

/** What `exitPreviewHandler` takes. */
export interface ExitPreviewHandlerOptions {
  /** Where to go when the request names no same-site `redirect`; default `/`. */
  fallbackPath?: string;
  /** Turns draft mode off; default Next's `(await draftMode()).disable()`. */
  disableDraftMode?: () => void | Promise<void>;
}

/** What `revalidateHandler` takes. */
export interface RevalidateHandlerOptions {
  /** The webhook's signing secret; default `CMS_WEBHOOK_SECRET`. */
  secret?: string;
  /** Revalidates one tag; default Next's `revalidateTag(tag, 'max')`. */
  revalidate?: (tag: string) => void | Promise<void>;
  /** Replay window in seconds (verifyWebhook's default otherwise). */
  toleranceSeconds?: number;
}

function plain(status: number, message: string): NextResponse {
  return new NextResponse(message, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/** A token the server accepted: the document it opens and the release it previews, if any. */
interface VerifiedPreview {
  document: Document;
  release: string | undefined;
}

/**
 * Verifies a preview token by reading with it: the draft it names, or for a release preview token the
 * document as the release would publish it. Answers the refusal for a token that does not pass.
 */
async function verifyPreview(
  token: string,
  serverUrl: string,
  options: DraftModeHandlerOptions,
): Promise<VerifiedPreview | Response> {
  try {
    const preview = createPreviewClient({
      baseUrl: serverUrl,
      token,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const { release } = preview.claims;
    if (release !== undefined && !isReleaseId(release))
      return plain(
        401,
        'Invalid preview token: its release is not a release id. Open the preview from the Studio again.',
      );
    const document = await preview.get({ cache: 'no-store' });
    return { document, release };
  } catch (error) {
    // A token that is not a JWT at all fails before any request.
    if (error instanceof TypeError || error instanceof SyntaxError)
      return plain(401, 'Invalid preview token: open the preview from the Studio again.');
    if (isCmsError(error) && error.status >= 400 && error.status < 500)
      return plain(401, `Preview refused (${error.code}): ${error.message}`);
    throw error;
  }
}

/** The page to open: a same-site `redirect`, else `pathOf`, else the document's path. */
function previewTarget(url: URL, document: Document, options: DraftModeHandlerOptions): string {
  return (
    safePath(url.searchParams.get('redirect'), url) ??
    options.pathOf?.(document) ??
    (options.localePrefix ? `/${document.locale}/${document.path}` : `/${document.path}`)
  );
}

/**
 * `GET /api/draft?token=...[&redirect=/path]`: verifies the token, enables draft mode, remembers the
 * release of a release preview token (a plain one forgets it), redirects.
 */
export function draftModeHandler(options: DraftModeHandlerOptions = {}) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const token = url.searchParams.get(options.tokenParam ?? 'token');
    if (!token) return plain(401, 'Missing preview token: open the preview from the Studio again.');
    const serverUrl = options.serverUrl ?? process.env.CMS_SERVER_URL;
    if (!serverUrl) return plain(500, 'draftModeHandler: set serverUrl or CMS_SERVER_URL.');
    const verified = await verifyPreview(token, serverUrl, options);
    if (verified instanceof Response) return verified;
    if (options.enableDraftMode) await options.enableDraftMode();
    else (await draftMode()).enable();
    const response = NextResponse.redirect(new URL(previewTarget(url, verified.document, options), url), 307);
    if (verified.release === undefined) forgetRelease(response, url);
    else rememberRelease(response, url, verified.release);
    return response;
  };
}

/** `GET /api/draft/exit[?redirect=/path]`: turns draft mode off, forgets the release, redirects on the site. */
export function exitPreviewHandler(options: ExitPreviewHandlerOptions = {}) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (options.disableDraftMode) await options.disableDraftMode();
    else (await draftMode()).disable();
    const target = safePath(url.searchParams.get('redirect'), url) ?? safePath(options.fallbackPath ?? '/', url) ?? '/';
    const response = NextResponse.redirect(new URL(target, url), 307);
    forgetRelease(response, url);
    return response;
  };
}

/** The tags one content event revalidates. */
export function tagsOf(event: ContentWebhookEvent): string[] {
  return [typeTag(event.project, event.environment, event.document.type), documentTag(event.document.documentId)];
}

/** `POST /api/revalidate`: verifies the webhook, revalidates the type's and the document's tags. */
export function revalidateHandler(options: RevalidateHandlerOptions = {}) {
  return async (request: Request): Promise<Response> => {
    const secret = options.secret ?? process.env.CMS_WEBHOOK_SECRET;
    if (!secret) return plain(500, 'revalidateHandler: set secret or CMS_WEBHOOK_SECRET.');
    let event: WebhookEvent;
    try {
      event = await verifyWebhook<WebhookEvent>({
        payload: await request.text(),
        headers: request.headers,
        secret,
        ...(options.toleranceSeconds === undefined ? {} : { toleranceSeconds: options.toleranceSeconds }),
      });
    } catch (error) {
      if (error instanceof WebhookVerificationError)
        return plain(400, `Webhook refused (${error.reason}): ${error.message}`);
      throw error;
    }
    if (!('document' in event)) return NextResponse.json({ revalidated: [] });
    const tags = tagsOf(event);
    for (const tag of tags) {
      if (options.revalidate) await options.revalidate(tag);
      else revalidateTag(tag, 'max');
    }
    return NextResponse.json({ revalidated: tags });
  };
}
