/**
 * Route handlers for the Next.js App Router.
 * - `draftModeHandler`: the preview route the Studio's preview URL points at. It verifies the preview
 *   token by reading the draft with it (the server checks signature, expiry and staleness), enables
 *   draft mode and redirects to the document's page.
 * - `revalidateHandler`: the webhook route. It verifies the delivery with the SDK's `verifyWebhook`
 *   and revalidates the tags the SDK's reads carry: `cms:<project>:<environment>:<type>` and
 *   `cms:document:<documentId>`.
 * @example
 * // app/api/draft/route.ts
 * export const GET = draftModeHandler({ serverUrl: process.env.CMS_SERVER_URL });
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

/**
 * A same-site path only: a `redirect` parameter may never send the browser to another origin. The
 * check is on the address as the URL parser reads it, since the parser drops tabs and newlines
 * (`/\t/evil.test` reads as `//evil.test`) and turns `\` into `/`.
 */
function safePath(value: string | null, base: URL): string | null {
  if (!value?.startsWith('/') || !URL.canParse(value, base.href)) return null;
  const target = new URL(value, base);
  return target.origin === base.origin ? `${target.pathname}${target.search}${target.hash}` : null;
}

/** `GET /api/draft?token=...[&redirect=/path]`: verifies the token, enables draft mode, redirects. */
export function draftModeHandler(options: DraftModeHandlerOptions = {}) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const token = url.searchParams.get(options.tokenParam ?? 'token');
    if (!token) return plain(401, 'Missing preview token: open the preview from the Studio again.');
    const serverUrl = options.serverUrl ?? process.env.CMS_SERVER_URL;
    if (!serverUrl) return plain(500, 'draftModeHandler: set serverUrl or CMS_SERVER_URL.');
    let document: Document;
    try {
      const preview = createPreviewClient({
        baseUrl: serverUrl,
        token,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
      document = await preview.get({ cache: 'no-store' });
    } catch (error) {
      // A token that is not a JWT at all fails before any request.
      if (error instanceof TypeError || error instanceof SyntaxError)
        return plain(401, 'Invalid preview token: open the preview from the Studio again.');
      if (isCmsError(error) && error.status >= 400 && error.status < 500)
        return plain(401, `Preview refused (${error.code}): ${error.message}`);
      throw error;
    }
    if (options.enableDraftMode) await options.enableDraftMode();
    else (await draftMode()).enable();
    const target =
      safePath(url.searchParams.get('redirect'), url) ??
      options.pathOf?.(document) ??
      (options.localePrefix ? `/${document.locale}/${document.path}` : `/${document.path}`);
    return NextResponse.redirect(new URL(target, url), 307);
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
