/**
 * An entry's `requestId` is the server's own id of the request; a caller's `X-Request-Id` is kept in
 * `clientRequestId` (docs/audit.md "An entry"), so a caller cannot make two entries claim one request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, uniqueEmail } from '../identity/identity-helpers.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { auditEntries } from './audit-helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const lines: Array<Record<string, any>> = [];
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    env: { LOG_LEVEL: 'info' },
    logStream: { write: (line) => lines.push(JSON.parse(line)) },
  });
});
afterAll(() => t.close());

describe('the request ids of an audit entry', () => {
  it('records the server’s own id as requestId and the caller’s X-Request-Id apart, for each of two requests', async () => {
    const responses = [];
    for (const title of ['First', 'Second']) {
      const response = await t.request('POST', '/api/v1/releases', {
        headers: { 'x-request-id': 'same-id-twice' },
        body: { title },
      });
      expect(response.status, response.text).toBe(201);
      // The caller's id still comes back for its own correlation.
      expect(response.headers.get('x-request-id')).toBe('same-id-twice');
      responses.push(response);
    }
    const entries = (await auditEntries(t, { action: 'releases.create' })).filter(
      (entry) => entry.clientRequestId === 'same-id-twice',
    );
    expect(entries).toHaveLength(2);
    const [second, first] = entries;
    for (const entry of entries) expect(entry.requestId).toMatch(UUID);
    expect(first.requestId).not.toBe(second.requestId);
    expect([first.changes.input.title, second.changes.input.title]).toEqual(['First', 'Second']);
    // Each request line names the server's id beside the caller's, so a line leads to its entry.
    const requestLines = lines.filter((line) => line.msg === 'request' && line.requestId === 'same-id-twice');
    expect(requestLines.map((line) => line.serverRequestId)).toEqual([first.requestId, second.requestId]);
  });

  it('uses the id it made when the caller sent none, and leaves clientRequestId null', async () => {
    const response = await t.request('POST', '/api/v1/releases', { body: { title: 'Plain' } });
    expect(response.status, response.text).toBe(201);
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    const [entry] = (await auditEntries(t, { action: 'releases.create' })).filter((e) => e.requestId === id);
    expect(entry).toMatchObject({ requestId: id, clientRequestId: null });
    expect(lines.find((line) => line.msg === 'request' && line.requestId === id)).not.toHaveProperty('serverRequestId');
  });

  it('keeps the caller’s id apart on a refused sign-in too, an entry written on its own', async () => {
    const refused = await login(t.url, uniqueEmail('nobody'), 'wrong password here', { 'x-request-id': 'login-7' });
    expect(refused.status).toBe(401);
    const [entry] = (await auditEntries(t, { action: 'auth.login' }, { project: null })).filter(
      (e) => e.clientRequestId === 'login-7',
    );
    expect(entry).toMatchObject({ outcome: 'denied', clientRequestId: 'login-7' });
    expect(entry.requestId).toMatch(UUID);
  });

  it('still verifies the chain with entries that carry a caller’s id', async () => {
    const verify = await t.request('GET', '/api/v1/audit/verify', { environment: null });
    expect(verify.body.data).toMatchObject({ ok: true, firstBrokenId: null });
    const instance = await t.request('GET', '/api/v1/audit/verify', { project: null, environment: null });
    expect(instance.body.data).toMatchObject({ ok: true, firstBrokenId: null });
  });
});
