/**
 * `verifyWebhook`: checks a delivery's signature on the raw body with Web Crypto and returns the
 * typed event. Accepts the CMS header (`X-CMS-Signature: t=<unix>,v1=<hex>`) or the Standard
 * Webhooks trio (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`). Signatures
 * are compared by `crypto.subtle.verify`, which takes the same time whatever bytes differ.
 * @example
 * const event = await verifyWebhook({ payload: await request.text(), headers: request.headers, secret });
 * if (event.event === 'content.published') revalidate(event.document.path);
 */
import type { WebhookEvent } from './types.js';

/** Default replay window, in seconds. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** Why a delivery was refused. */
export type WebhookVerificationReason =
  | 'missing_header'
  | 'malformed_header'
  | 'bad_signature'
  | 'timestamp_out_of_tolerance'
  | 'invalid_payload';

/** Thrown by `verifyWebhook`; `reason` says why. Answer the delivery with 400 (it will be retried). */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
  }
}

/** Request headers as fetch (`Headers`), Node (`IncomingHttpHeaders`) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** What `verifyWebhook` takes. */
export interface VerifyWebhookInput {
  /** The raw body exactly as received: never re-serialized JSON. */
  payload: string | Uint8Array | ArrayBuffer;
  headers: WebhookHeaders;
  /** The webhook's secret; a `whsec_` secret is also tried base64-decoded, as Standard Webhooks keys are. */
  secret: string | Uint8Array;
  /** Largest accepted distance between the signature time and now; default 300. */
  toleranceSeconds?: number;
  /** Now, in unix seconds (tests). */
  now?: number;
}

function header(headers: WebhookHeaders, name: string): string | null {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

function fail(reason: WebhookVerificationReason, message: string): never {
  throw new WebhookVerificationError(reason, message);
}

function fromHex(hex: string): Uint8Array | null {
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function fromBase64(text: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(text), (character) => character.charCodeAt(0));
  } catch {
    return null;
  }
}

function bytesOf(payload: VerifyWebhookInput['payload']): Uint8Array {
  if (typeof payload === 'string') return new TextEncoder().encode(payload);
  return payload instanceof Uint8Array ? payload : new Uint8Array(payload);
}

function concat(prefix: string, body: Uint8Array): Uint8Array {
  const head = new TextEncoder().encode(prefix);
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}

function keyCandidates(secret: VerifyWebhookInput['secret']): Uint8Array[] {
  if (typeof secret !== 'string') return [secret];
  const raw = new TextEncoder().encode(secret);
  const decoded = secret.startsWith('whsec_') ? fromBase64(secret.slice('whsec_'.length)) : null;
  return decoded ? [decoded, raw] : [raw];
}

/** What Web Crypto takes as bytes, named the same way in DOM and Node typings. */
type CryptoBytes = Parameters<typeof crypto.subtle.verify>[2];

async function anyMatches(keys: Uint8Array[], data: Uint8Array, signatures: Uint8Array[]): Promise<boolean> {
  let matched = false;
  // Every pair is checked (no early exit), so timing does not tell which matched.
  for (const key of keys) {
    const cryptoKey = await crypto.subtle.importKey(
      'raw',
      key as CryptoBytes,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    for (const signature of signatures) {
      if (await crypto.subtle.verify('HMAC', cryptoKey, signature as CryptoBytes, data as CryptoBytes)) matched = true;
    }
  }
  return matched;
}

interface SignedParts {
  timestamp: number;
  /** The bytes signed: `<t>.<body>` or `<id>.<t>.<body>`. */
  signed: Uint8Array;
  signatures: Uint8Array[];
}

function cmsParts(value: string, body: Uint8Array): SignedParts {
  let t: string | undefined;
  const signatures: Uint8Array[] = [];
  for (const part of value.split(',')) {
    const at = part.indexOf('=');
    const key = part.slice(0, at).trim();
    const item = part.slice(at + 1).trim();
    if (at <= 0 || item === '') fail('malformed_header', 'X-CMS-Signature must read t=<unix seconds>,v1=<hex>');
    if (key === 't') t = item;
    if (key === 'v1') {
      const bytes = fromHex(item);
      if (bytes) signatures.push(bytes);
    }
  }
  if (t === undefined || !/^\d{1,15}$/.test(t))
    fail('malformed_header', 'X-CMS-Signature has no valid t=<unix seconds>');
  if (signatures.length === 0) fail('malformed_header', 'X-CMS-Signature has no v1=<hex> signature');
  return { timestamp: Number(t), signed: concat(`${t}.`, body), signatures };
}

function standardParts(id: string, t: string, value: string, body: Uint8Array): SignedParts {
  if (!/^\d{1,15}$/.test(t)) fail('malformed_header', 'webhook-timestamp must be unix seconds');
  const signatures: Uint8Array[] = [];
  for (const entry of value.split(' ')) {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) continue;
    const bytes = fromBase64(signature);
    if (bytes) signatures.push(bytes);
  }
  if (signatures.length === 0) fail('malformed_header', 'webhook-signature has no v1,<base64> signature');
  return { timestamp: Number(t), signed: concat(`${id}.${t}.`, body), signatures };
}

/**
 * Verifies a delivery and returns its event; throws `WebhookVerificationError` otherwise.
 * The timestamp is checked after the signature, so only authentic but stale deliveries say so.
 */
export async function verifyWebhook<E = WebhookEvent>(input: VerifyWebhookInput): Promise<E> {
  const body = bytesOf(input.payload);
  const cms = header(input.headers, 'x-cms-signature');
  const id = header(input.headers, 'webhook-id');
  const t = header(input.headers, 'webhook-timestamp');
  const standard = header(input.headers, 'webhook-signature');
  let parts: SignedParts;
  if (cms) parts = cmsParts(cms, body);
  else if (id && t && standard) parts = standardParts(id, t, standard, body);
  else {
    fail(
      'missing_header',
      'No signature: expected X-CMS-Signature, or webhook-id, webhook-timestamp and webhook-signature.',
    );
  }
  if (!(await anyMatches(keyCandidates(input.secret), parts.signed, parts.signatures))) {
    fail(
      'bad_signature',
      'The signature does not match: check the secret and that the body is the raw bytes received.',
    );
  }
  const tolerance = input.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const now = input.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - parts.timestamp) > tolerance) {
    fail(
      'timestamp_out_of_tolerance',
      `The signature is ${Math.abs(now - parts.timestamp)} s from now; at most ${tolerance} s is accepted.`,
    );
  }
  try {
    return JSON.parse(new TextDecoder().decode(body)) as E;
  } catch {
    return fail('invalid_payload', 'The signed body is not JSON.');
  }
}
