/**
 * An entry's `ip` is the client address under the trusted-proxy rule (docs/audit.md, docs/configuration.md
 * `CMS_TRUST_PROXY`): `X-Forwarded-For` counts only when it comes from a trusted proxy.
 */
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../support/test-server.js';
import { entriesOfRequest } from './audit-helpers.js';

describe('the client address of an audit entry', () => {
  it.each([
    ['false', '127.0.0.1'],
    ['192.0.2.1', '127.0.0.1'],
    ['127.0.0.1', '203.0.113.9'],
  ])('with CMS_TRUST_PROXY=%s is %s', async (trust, expected) => {
    const t = await startTestServer({ env: { CMS_TRUST_PROXY: trust } });
    try {
      const response = await t.request('POST', '/api/v1/environments', {
        environment: null,
        headers: { 'x-forwarded-for': '203.0.113.9' },
        body: { name: 'addressed' },
      });
      expect(response.status, response.text).toBe(201);
      const [entry] = await entriesOfRequest(t, response.headers.get('x-request-id') ?? '', { environment: null });
      expect(entry).toMatchObject({ action: 'environments.create', ip: expected });
    } finally {
      await t.close();
    }
  });
});
