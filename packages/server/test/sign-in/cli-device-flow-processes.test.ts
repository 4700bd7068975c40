import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSession, expectError, signInAs } from '../identity/identity-helpers.js';
import { type ServerOnDatabase, startServerOn } from '../support/server-on-database.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { authorize, exchange, startChallenge } from './cli-helpers.js';

const TARGET = { project: 'default', environment: 'production' };

// Two server processes on one database (on PostgreSQL the second opens its own pool, as another
// process would; PGlite cannot be shared between processes, so there they share the instance).
let a: TestServer;
let b: ServerOnDatabase;
beforeAll(async () => {
  a = await startTestServer();
  b = await startServerOn(a.database, { ownConnection: true });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

describe('a device flow across two server processes', () => {
  it('starts on one, is approved on the other, exchanged on the first, and the key works and is revoked on both', async () => {
    const session = await signInAs(a, { grants: [{ project: 'default', environment: '*', role: 'author' }] });
    const started = await startChallenge(a.url, TARGET);
    const { challengeId } = started.body.data;
    const shown = await asSession(b.url, session, 'GET', `/api/v1/auth/cli/challenges/${challengeId}`, {
      project: null,
      environment: null,
    });
    expect(shown.status, shown.text).toBe(200);
    const approved = await authorize(b.url, session, challengeId);
    expect(approved.status, approved.text).toBe(200);
    const exchanged = await exchange(a.url, challengeId, approved.body.data.code);
    expect(exchanged.status, exchanged.text).toBe(200);
    const { apiKey } = exchanged.body.data;
    expectError(await exchange(b.url, challengeId, approved.body.data.code), 400, 'INVALID_INPUT');

    const me = await sendRequest(b.url, apiKey, 'GET', '/api/v1/me');
    expect(me.status, me.text).toBe(200);
    expect(me.body.data.capabilities).toMatchObject({ 'content.write': true, 'content.publish': false });

    const listed = await a.request('GET', '/api/v1/api-keys', { project: null, environment: null });
    const id = listed.body.data.find((key: { prefix: string }) => apiKey.startsWith(key.prefix)).id;
    expect((await a.request('DELETE', `/api/v1/api-keys/${id}`, { project: null, environment: null })).status).toBe(
      200,
    );
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 401; attempt += 1) {
      status = (await sendRequest(b.url, apiKey, 'GET', '/api/v1/me')).status;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(401);
  });

  it('counts wrong codes across processes: three on one and two on the other kill the challenge', async () => {
    const session = await signInAs(a, { grants: [{ project: 'default', environment: '*', role: 'viewer' }] });
    const { challengeId } = (await startChallenge(b.url, TARGET)).body.data;
    const { code } = (await authorize(a.url, session, challengeId)).body.data;
    const wrong = await Promise.all([
      exchange(a.url, challengeId, 'WRNG-0001'),
      exchange(b.url, challengeId, 'WRNG-0002'),
      exchange(a.url, challengeId, 'WRNG-0003'),
      exchange(b.url, challengeId, 'WRNG-0004'),
      exchange(a.url, challengeId, 'WRNG-0005'),
    ]);
    for (const answer of wrong) expectError(answer, 400, 'INVALID_INPUT');
    expectError(await exchange(b.url, challengeId, code), 403, 'FORBIDDEN');
    expectError(await exchange(a.url, challengeId, code), 403, 'FORBIDDEN');
  });
});
