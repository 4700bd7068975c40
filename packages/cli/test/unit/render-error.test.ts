import { CmsError } from '@cms/sdk';
import { describe, expect, it } from 'vitest';
import { toReport } from '../../src/cli/render-error.js';

describe('the hint under a server error', () => {
  it('says to wait on RATE_LIMITED (login backoff, too many sign-ins started), not to lower --concurrency', () => {
    const report = toReport(
      new CmsError({
        code: 'RATE_LIMITED',
        status: 429,
        message: 'Too many command-line sign-ins ... retry in 592 s.',
        details: { retryAfterSeconds: 592 },
      }),
    );
    expect(report).toMatchObject({ code: 'RATE_LIMITED', status: 429, exitCode: 1 });
    expect(report.hint).toBe('Too many attempts from here: wait as long as the message says, then try again.');
  });
});
