import { describe, expect, it } from 'vitest';
import { CmsError, CmsNetworkError, parseRetryAfter } from './errors.js';
import { isRetryable, retryDelayMs } from './retry.js';

const options = { retries: 2, baseDelayMs: 100, maxDelayMs: 1_000 };
const error = (
  code: 'RATE_LIMITED' | 'SERVICE_UNAVAILABLE' | 'CONFLICT',
  status: number,
  retryAfterSeconds: number | null = null,
) => new CmsError({ code, status, message: code, retryAfterSeconds });

describe('parseRetryAfter', () => {
  it('reads delta seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});

describe('isRetryable', () => {
  it('retries reads on 429, 503 and network errors', () => {
    expect(isRetryable(error('RATE_LIMITED', 429), true, false)).toBe(true);
    expect(isRetryable(error('SERVICE_UNAVAILABLE', 503), true, false)).toBe(true);
    expect(isRetryable(new CmsNetworkError('x', 'GET', 'u'), true, false)).toBe(true);
    expect(isRetryable(error('CONFLICT', 409), true, true)).toBe(false);
  });

  it('retries writes only on the envelope saying nothing was written', () => {
    expect(isRetryable(error('SERVICE_UNAVAILABLE', 503), false, true)).toBe(true);
    expect(isRetryable(error('SERVICE_UNAVAILABLE', 503), false, false)).toBe(false);
    expect(isRetryable(new CmsNetworkError('x', 'POST', 'u'), false, false)).toBe(false);
  });
});

describe('retryDelayMs', () => {
  it('waits Retry-After when given, and gives up past the cap', () => {
    expect(retryDelayMs(error('RATE_LIMITED', 429, 1), 0, options)).toBe(1_000);
    expect(retryDelayMs(error('RATE_LIMITED', 429, 2), 0, options)).toBeNull();
  });

  it('backs off exponentially with full jitter, capped', () => {
    expect(retryDelayMs(error('RATE_LIMITED', 429), 0, options, () => 1)).toBe(100);
    expect(retryDelayMs(error('RATE_LIMITED', 429), 2, options, () => 1)).toBe(400);
    expect(retryDelayMs(error('RATE_LIMITED', 429), 9, options, () => 1)).toBe(1_000);
    expect(retryDelayMs(error('RATE_LIMITED', 429), 3, options, () => 0)).toBe(0);
  });
});
