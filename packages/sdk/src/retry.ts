/**
 * When and how long to wait before sending a request again: 429 and 503 only, reads always,
 * writes only when the API's error envelope says the request was refused before anything was
 * written (RATE_LIMITED, SERVICE_UNAVAILABLE). Exponential backoff with full jitter, or the
 * server's Retry-After when it gives one.
 */
import { CmsError, CmsNetworkError } from './errors.js';

/** Retry settings; `retries: 0` turns retrying off. */
export interface RetryOptions {
  /** Attempts after the first; default 2. */
  retries?: number;
  /** First backoff step in ms; default 250. Attempt n waits a random time up to base * 2^n. */
  baseDelayMs?: number;
  /** Longest wait between attempts, Retry-After included; a longer Retry-After is not waited for. Default 30 000. */
  maxDelayMs?: number;
}

export const DEFAULT_RETRIES = 2;
export const DEFAULT_BASE_DELAY_MS = 250;
export const DEFAULT_MAX_DELAY_MS = 30_000;

const RETRYABLE_STATUS = new Set([429, 503]);
/** Codes by which the server says a request was refused before it was carried out. */
const NOTHING_WRITTEN = new Set(['RATE_LIMITED', 'SERVICE_UNAVAILABLE']);

/** Whether this failure may be sent again. */
export function isRetryable(error: unknown, isRead: boolean, fromEnvelope: boolean): boolean {
  if (error instanceof CmsNetworkError) return isRead;
  if (!(error instanceof CmsError) || !RETRYABLE_STATUS.has(error.status)) return false;
  return isRead || (fromEnvelope && NOTHING_WRITTEN.has(error.code));
}

/** Ms to wait before attempt `attempt + 1` (0-based), or null when the wait would exceed the cap. */
export function retryDelayMs(
  error: unknown,
  attempt: number,
  options: Required<RetryOptions>,
  random = Math.random,
): number | null {
  const retryAfter = error instanceof CmsError ? error.retryAfterSeconds : null;
  if (retryAfter !== null) {
    const ms = retryAfter * 1000;
    return ms > options.maxDelayMs ? null : ms;
  }
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return Math.round(random() * ceiling);
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
