import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { isCmsError } from '@cms/core';
import {
  parseWebhookUrl,
  resolveAllowedAddresses,
  type WebhookDnsLookup,
  type WebhookUrlPolicyOptions,
} from './webhook-url-policy.js';

/** Time allowed for one delivery attempt, connect to last byte read (interface.md, Delivery behaviour). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** At most this many bytes of a receiver's answer are read and kept for the delivery log. */
export const WEBHOOK_RESPONSE_SNIPPET_BYTES = 4096;
/** User-Agent sent with every delivery. */
export const WEBHOOK_USER_AGENT = 'cms-webhooks/1';

/** One delivery attempt: the exact body to POST and the headers (signature, delivery id) to send. */
export interface SendWebhookRequestInput {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs?: number;
  /** Extra trusted CA certificates (PEM), added to Node's bundled roots (`CMS_WEBHOOK_CA_FILE`). */
  ca?: string | Buffer;
  /** Accept any receiver certificate, self-signed included (`CMS_DEV`, never in production). */
  acceptAnyCertificate?: boolean;
  allowPrivate: boolean;
  lookup?: WebhookDnsLookup;
}

/** Outcome of one attempt; `error` explains failures that are not an HTTP status. */
export interface WebhookAttemptResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error?: string;
  responseBodySnippet?: string;
}

/**
 * POSTs one webhook delivery over HTTPS and reports the outcome; never throws. Success is any 2xx;
 * redirects are not followed; a refused url, a network error or the timeout is a failure.
 * @example await sendWebhookRequest({ url, body, headers: signWebhook({ secret, body, deliveryId }), allowPrivate: false })
 */
export async function sendWebhookRequest(input: SendWebhookRequestInput): Promise<WebhookAttemptResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const policy: WebhookUrlPolicyOptions = { allowPrivate: input.allowPrivate, lookup: input.lookup };

  let url: URL;
  try {
    url = parseWebhookUrl(input.url);
    // Node connects to IP literals without calling `lookup`, so the policy sees them here.
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0) await resolveAllowedAddresses(host, policy);
  } catch (error: unknown) {
    return { ok: false, statusCode: null, durationMs: elapsed(), error: describeError(error) };
  }

  const body = Buffer.from(input.body, 'utf8');
  const timeoutMs = input.timeoutMs ?? WEBHOOK_TIMEOUT_MS;

  return new Promise<WebhookAttemptResult>((resolve) => {
    let statusCode: number | null = null;
    let settled = false;
    const finish = (outcome: Omit<WebhookAttemptResult, 'durationMs'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ ...outcome, durationMs: elapsed() });
    };

    const req = request(url, {
      method: 'POST',
      // Our own headers go last: Node treats header names case-insensitively, so these win.
      headers: {
        ...input.headers,
        'Content-Type': 'application/json',
        'User-Agent': WEBHOOK_USER_AGENT,
        'Content-Length': String(body.length),
      },
      // A fresh connection per attempt: no pooled socket bypasses the connect-time policy check.
      agent: false,
      ...(input.ca === undefined ? {} : { ca: [...rootCertificates, input.ca.toString()] }),
      ...(input.acceptAnyCertificate ? { rejectUnauthorized: false } : {}),
      lookup: checkedLookup(policy),
    });
    const timer = setTimeout(
      () => finish({ ok: false, statusCode, error: `timed out after ${timeoutMs} ms` }),
      timeoutMs,
    );

    req.on('error', (error) => finish({ ok: false, statusCode, error: describeError(error) }));
    req.on('response', (response: IncomingMessage) => {
      statusCode = response.statusCode ?? null;
      readSnippet(response, (snippet) => finish(outcomeOf(response, snippet)));
      response.on('error', (error) => finish({ ok: false, statusCode, error: describeError(error) }));
    });
    req.end(body);
  });
}

/**
 * A `lookup` for the connection that resolves the host once and re-applies the url policy to the
 * very addresses the socket will use, so a DNS answer that changed to a private address after the
 * webhook was saved (DNS rebinding) is refused at connect time.
 */
function checkedLookup(policy: WebhookUrlPolicyOptions): LookupFunction {
  return (hostname, options, callback) => {
    resolveAllowedAddresses(hostname, policy).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = addresses.filter((entry) => wanted === undefined || entry.family === wanted);
        const [first] = usable;
        if (!first) {
          callback(Object.assign(new Error(`${hostname} has no IPv${wanted} address`), { code: 'ENOTFOUND' }), '');
        } else if (options.all) {
          callback(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ''),
    );
  };
}

/** Collects up to WEBHOOK_RESPONSE_SNIPPET_BYTES, then reports without waiting for the rest. */
function readSnippet(response: IncomingMessage, done: (snippet: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const report = (): void => done(Buffer.concat(chunks).subarray(0, WEBHOOK_RESPONSE_SNIPPET_BYTES).toString('utf8'));
  response.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= WEBHOOK_RESPONSE_SNIPPET_BYTES) report();
  });
  response.on('end', report);
}

function outcomeOf(response: IncomingMessage, snippet: string): Omit<WebhookAttemptResult, 'durationMs'> {
  const statusCode = response.statusCode ?? null;
  const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
  const outcome: Omit<WebhookAttemptResult, 'durationMs'> = { ok, statusCode };
  if (statusCode !== null && statusCode >= 300 && statusCode < 400) {
    outcome.error = `redirect to ${response.headers.location ?? '(no location)'} not followed`;
  }
  if (snippet !== '') outcome.responseBodySnippet = snippet;
  return outcome;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (isCmsError(error)) return error.message;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  return code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
}
