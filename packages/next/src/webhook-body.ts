/**
 * What `revalidateHandler` does before it verifies a delivery: look for the signature headers, then
 * read the body up to a limit. A request without them is refused before a byte of its body is read,
 * and a body over the limit is refused once the limit is passed (or at once from `Content-Length`),
 * so an unsigned or oversized POST costs the site neither memory nor time.
 */

/** Default largest webhook body read: 1 MiB (a content event is well under 1 KB). */
export const DEFAULT_WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** True when the request carries `X-CMS-Signature`, or the three Standard Webhooks headers. */
export function hasSignatureHeaders(headers: Headers): boolean {
  if (/(?:^|,)\s*t=\d{1,15}\s*(?:,|$)/.test(headers.get('x-cms-signature') ?? '')) return true;
  return (
    headers.has('webhook-id') &&
    /^\d{1,15}$/.test(headers.get('webhook-timestamp') ?? '') &&
    (headers.get('webhook-signature') ?? '').includes('v1,')
  );
}

/** The body's bytes, or `null` once it passes `limit` (the rest is not read; the stream is cancelled). */
export async function readBodyUpTo(request: Request, limit: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await request.body?.cancel().catch(() => undefined);
    return null;
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}
