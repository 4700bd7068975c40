/** One declared header policy: nosniff everywhere, HSTS over https, no-store on sensitive answers, CSPs. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSession, signInAs } from '../identity/identity-helpers.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';

let plain: TestServer;
let secure: TestServer;
beforeAll(async () => {
  plain = await startTestServer();
  secure = await startTestServer({ env: { CMS_PUBLIC_URL: 'https://cms.example.test' } });
});
afterAll(async () => {
  await plain?.close();
  await secure?.close();
});

describe('every answer', () => {
  it('says nosniff, on success, on errors and on unknown paths', async () => {
    for (const path of ['/healthz', '/api/v1/content?type=post', '/api/v1/nowhere']) {
      const response = await plain.request('GET', path);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    const refused = await sendRequest(plain.url, null, 'GET', '/api/v1/me');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('forbids API answers to load anything or be framed', async () => {
    const response = await plain.request('GET', '/api/v1/content?type=post');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});

describe('Strict-Transport-Security', () => {
  it('is sent when the public address is https, and only then', async () => {
    expect((await secure.request('GET', '/healthz')).headers.get('strict-transport-security')).toBe('max-age=31536000');
    expect((await plain.request('GET', '/healthz')).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('Cache-Control: no-store', () => {
  it('is on keys, users, sessions, me and the Studio bootstrap', async () => {
    for (const path of ['/api/v1/api-keys', '/api/v1/users', '/api/v1/invites']) {
      const response = await plain.request('GET', path, { project: null, environment: null });
      expect(response.status, `${path} ${response.text}`).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('no-store');
    }
    const session = await signInAs(plain, { role: 'viewer' });
    for (const path of ['/api/v1/me', '/api/v1/auth/sessions', '/api/v1/studio/bootstrap']) {
      const response = await asSession(plain.url, session, 'GET', path, { project: null, environment: null });
      expect(response.status, `${path} ${response.text}`).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('is on the audit log, whose entries name people and their addresses', async () => {
    for (const path of ['/api/v1/audit', '/api/v1/audit/verify']) {
      const response = await plain.request('GET', path, { project: null, environment: null });
      expect(response.status, `${path} ${response.text}`).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('is on a sign-in answer, which carries the session', async () => {
    const response = await sendRequest(plain.url, null, 'POST', '/api/v1/auth/login', {
      body: { email: 'nobody@example.test', password: 'not the password' },
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('is not forced on content reads, which choose their own caching', async () => {
    const response = await plain.request('GET', '/api/v1/content?type=post');
    expect(response.headers.get('cache-control')).not.toBe('no-store');
  });
});

describe('Studio pages', () => {
  it('carry the Studio CSP, no framing and a same-origin referrer', async () => {
    const response = await fetch(`${plain.url}/studio/`);
    expect(response.headers.get('content-type')).toContain('text/html');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
