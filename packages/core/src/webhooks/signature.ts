import { createHmac, timingSafeEqual } from 'node:crypto';

/** Default replay window of `verifyWebhook`, in seconds (interface.md, Events, Signature step 4). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Name of the CMS signature header (`t=<unix>,v1=<hex>`). */
export const WEBHOOK_SIGNATURE_HEADER = 'X-CMS-Signature';

/** Input of `signWebhook`: the exact body bytes sent, and the delivery id stable across attempts. */
export interface SignWebhookInput {
  secret: string;
  body: string | Uint8Array;
  /** Unix seconds; defaults to now. */
  timestamp?: number;
  deliveryId: string;
}

/** Signature headers of one delivery: the CMS header plus the Standard Webhooks trio (decisions §6). */
export interface WebhookSignatureHeaders {
  'X-CMS-Signature': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** Options of `verifyWebhook`; `now` is in unix seconds. */
export interface VerifyWebhookOptions {
  toleranceSeconds?: number;
  now?: number;
}

/** Outcome of `verifyWebhook`. */
export type VerifyWebhookResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'malformed' | 'timestamp_out_of_tolerance' | 'signature_mismatch' };

/**
 * Signs one delivery body and returns the headers to send with it.
 * @example signWebhook({ secret, body: json, deliveryId: 'dlv_123' })['X-CMS-Signature']
 */
export function signWebhook(input: SignWebhookInput): WebhookSignatureHeaders {
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`webhook timestamp must be whole unix seconds, got ${timestamp}`);
  }
  const t = String(timestamp);
  const cms = hmac(input.secret, `${t}.`, input.body).toString('hex');
  // Standard Webhooks base64-decodes `whsec_` secrets; ours are plain strings (32-4096 chars),
  // so the key is the secret's UTF-8 bytes for both schemes. Receivers using a Standard Webhooks
  // library must pass the key bytes, not a `whsec_` string.
  const standard = hmac(input.secret, `${input.deliveryId}.${t}.`, input.body).toString('base64');
  return {
    'X-CMS-Signature': `t=${t},v1=${cms}`,
    'webhook-id': input.deliveryId,
    'webhook-timestamp': t,
    'webhook-signature': `v1,${standard}`,
  };
}

/**
 * Checks an `X-CMS-Signature` header against the raw body received, in constant time.
 * @example verifyWebhook(rawBody, req.headers['x-cms-signature'], secret).ok
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string,
  options: VerifyWebhookOptions = {},
): VerifyWebhookResult {
  const parsed = parseSignatureHeader(signatureHeader);
  if (!parsed) return { ok: false, reason: 'malformed' };

  const expected = Buffer.from(hmac(secret, `${parsed.t}.`, rawBody).toString('hex'), 'utf8');
  // Every candidate is compared (no early exit) so timing does not tell which entry matched.
  let matched = false;
  for (const candidate of parsed.v1) {
    if (constantTimeEqual(expected, Buffer.from(candidate.toLowerCase(), 'utf8'))) matched = true;
  }
  if (!matched) return { ok: false, reason: 'signature_mismatch' };

  // Checked after the signature, so only authentic but stale (replayed) deliveries report it.
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - parsed.timestamp) > tolerance) return { ok: false, reason: 'timestamp_out_of_tolerance' };
  return { ok: true, timestamp: parsed.timestamp };
}

function hmac(secret: string, prefix: string, body: string | Uint8Array): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(prefix, 'utf8').update(body).digest();
}

function constantTimeEqual(a: Buffer, b: Buffer): boolean {
  // timingSafeEqual throws on differing lengths; compare against itself to spend the same time.
  if (a.length !== b.length) {
    timingSafeEqual(a, a);
    return false;
  }
  return timingSafeEqual(a, b);
}

interface ParsedSignatureHeader {
  t: string;
  timestamp: number;
  v1: string[];
}

/** Parses `t=<unix>,v1=<hex>[,v1=<hex>...]`; unknown schemes (v0, v2) are ignored, as Stripe does. */
function parseSignatureHeader(header: string | null | undefined): ParsedSignatureHeader | null {
  if (typeof header !== 'string' || header.trim() === '') return null;
  let t: string | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) return null;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (value === '') return null;
    if (key === 't') {
      if (t !== undefined || !/^\d{1,15}$/.test(value)) return null;
      t = value;
    } else if (key === 'v1') {
      v1.push(value);
    }
  }
  if (t === undefined || v1.length === 0) return null;
  return { t, timestamp: Number(t), v1 };
}
