/**
 * `revalidateHandler`: the webhook route. It refuses a request without signature headers before
 * reading its body, reads at most `maxBodyBytes`, verifies the delivery with the SDK's
 * `verifyWebhook`, and expires at once the tags the SDK's reads carry (`typeTag`, `documentTag` and
 * `pathTag` of `@cms/sdk`): no visitor after the webhook's answer is shown the page as it was.
 * @example
 * // app/api/revalidate/route.ts
 * export const POST = revalidateHandler({ secret: process.env.CMS_WEBHOOK_SECRET });
 */
import {
  type ContentWebhookEvent,
  documentTag,
  pathTag,
  typeTag,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from '@cms/sdk';
import { revalidateTag } from 'next/cache.js';
import { NextResponse } from 'next/server.js';
import { env, plain } from './responses.js';
import { DEFAULT_WEBHOOK_BODY_LIMIT, hasSignatureHeaders, readBodyUpTo } from './webhook-body.js';

/** What `revalidateHandler` takes. */
export interface RevalidateHandlerOptions {
  /** The webhook's signing secret; default `CMS_WEBHOOK_SECRET`. */
  secret?: string;
  /** Revalidates one tag; default Next's `revalidateTag(tag, { expire: 0 })` (expired at once). */
  revalidate?: (tag: string) => void | Promise<void>;
  /** Replay window in seconds (verifyWebhook's default otherwise). */
  toleranceSeconds?: number;
  /** Largest body read, in bytes; a longer one is refused with 413. Default 1 MiB. */
  maxBodyBytes?: number;
}

/**
 * The tags one content event revalidates: its type's lists, every read that shows the document, and
 * the reads of its path (a document published or moved there).
 */
export function tagsOf(event: ContentWebhookEvent): string[] {
  const { project, environment, document } = event;
  const byPath = pathTag(project, environment, document.type, document.path);
  return [typeTag(project, environment, document.type), documentTag(document.documentId), ...(byPath ? [byPath] : [])];
}

/**
 * Expired at once rather than `'max'` (stale-while-revalidate): with `'max'` the first visitor after a
 * publish is served the page as it was while it renders anew. Expired, the page is rendered for that
 * visitor (revalidate.ts of Next.js: an expire of 0 marks the tags expired, and a cached page or fetch
 * with an expired tag is rendered again before it is served).
 */
const EXPIRE_NOW = { expire: 0 };

/** The verified event, or the refusal (400 unsigned or wrongly signed, 413 too long). */
async function verifiedEvent(
  request: Request,
  secret: string,
  options: RevalidateHandlerOptions,
): Promise<WebhookEvent | Response> {
  if (!hasSignatureHeaders(request.headers)) {
    await request.body?.cancel().catch(() => undefined);
    return plain(
      400,
      'Webhook refused (missing_header): no signature; expected X-CMS-Signature, or webhook-id, webhook-timestamp and webhook-signature.',
    );
  }
  const limit = options.maxBodyBytes ?? DEFAULT_WEBHOOK_BODY_LIMIT;
  const payload = await readBodyUpTo(request, limit);
  if (payload === null)
    return plain(413, `Webhook refused: the body is over ${limit} bytes (revalidateHandler's maxBodyBytes).`);
  try {
    return await verifyWebhook<WebhookEvent>({
      payload,
      headers: request.headers,
      secret,
      ...(options.toleranceSeconds === undefined ? {} : { toleranceSeconds: options.toleranceSeconds }),
    });
  } catch (error) {
    if (error instanceof WebhookVerificationError)
      return plain(400, `Webhook refused (${error.reason}): ${error.message}`);
    throw error;
  }
}

/** `POST /api/revalidate`: verifies the webhook, expires the tags of the type, the document and its path. */
export function revalidateHandler(options: RevalidateHandlerOptions = {}) {
  return async (request: Request): Promise<Response> => {
    const secret = options.secret ?? env('CMS_WEBHOOK_SECRET');
    if (!secret) return plain(500, 'revalidateHandler: set secret or CMS_WEBHOOK_SECRET.');
    const event = await verifiedEvent(request, secret, options);
    if (event instanceof Response) return event;
    if (!('document' in event)) return NextResponse.json({ revalidated: [] });
    const tags = tagsOf(event);
    for (const tag of tags) {
      if (options.revalidate) await options.revalidate(tag);
      else revalidateTag(tag, EXPIRE_NOW);
    }
    return NextResponse.json({ revalidated: tags });
  };
}
