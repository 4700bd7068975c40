/**
 * `revalidateHandler`: the webhook route. It refuses a request without signature headers before
 * reading its body, reads at most `maxBodyBytes`, verifies the delivery with the SDK's
 * `verifyWebhook`, and revalidates the tags the SDK's reads carry: `cms:<project>:<environment>:<type>`
 * and `cms:document:<documentId>`.
 * @example
 * // app/api/revalidate/route.ts
 * export const POST = revalidateHandler({ secret: process.env.CMS_WEBHOOK_SECRET });
 */
import {
  type ContentWebhookEvent,
  documentTag,
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
  /** Revalidates one tag; default Next's `revalidateTag(tag, 'max')`. */
  revalidate?: (tag: string) => void | Promise<void>;
  /** Replay window in seconds (verifyWebhook's default otherwise). */
  toleranceSeconds?: number;
  /** Largest body read, in bytes; a longer one is refused with 413. Default 1 MiB. */
  maxBodyBytes?: number;
}

/** The tags one content event revalidates. */
export function tagsOf(event: ContentWebhookEvent): string[] {
  return [typeTag(event.project, event.environment, event.document.type), documentTag(event.document.documentId)];
}

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

/** `POST /api/revalidate`: verifies the webhook, revalidates the type's and the document's tags. */
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
      else revalidateTag(tag, 'max');
    }
    return NextResponse.json({ revalidated: tags });
  };
}
