// app/api/cms-webhook/route.ts: verify the delivery on the raw body, then act on the typed event.
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from '@cms/sdk';

export function createWebhookHandler(secret: string, onEvent: (event: WebhookEvent) => void) {
  return async function POST(request: Request): Promise<Response> {
    const payload = await request.text(); // the raw body: never re-serialize it before verifying
    try {
      const event = await verifyWebhook({ payload, headers: request.headers, secret });
      onEvent(event); // e.g. revalidatePath(`/blog/${event.document.path}`) on content.published
      return new Response(null, { status: 204 });
    } catch (error) {
      if (error instanceof WebhookVerificationError) return new Response(error.reason, { status: 400 });
      throw error;
    }
  };
}
