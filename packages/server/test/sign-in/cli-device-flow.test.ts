import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI_START_WINDOW_MS, CLI_STARTS_PER_ADDRESS } from '../../src/modules/core-system/cli-auth.service.js';
import { asSession, expectError, signInAs } from '../identity/identity-helpers.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { authorize, deny, exchange, movableClock, poll, signInCli, startChallenge } from './cli-helpers.js';

const TARGET = { project: 'default', environment: 'production' };
const time = movableClock();

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ clock: time.clock, env: { CMS_PUBLIC_URL: 'https://cms.example.test' } });
});
afterAll(() => t.close());
// All these requests come from one address, which may start only CLI_STARTS_PER_ADDRESS challenges in
// a window: each test starts with the count forgotten (the challenges themselves stay).
beforeEach(async () => {
  await t.db.query('update cli_challenges set client_key = null');
});

const editorGrant = [{ project: 'default', environment: '*', role: 'editor' }];

describe('start', () => {
  it('needs no credentials and answers the challenge, the Studio address, a user code and an expiry 10 minutes out', async () => {
    const before = Date.now();
    const started = await startChallenge(t.url, TARGET);
    expect(started.status, started.text).toBe(200);
    const { challengeId, authorizeUrl, expiresAt, userCode } = started.body.data;
    expect(Object.keys(started.body.data).sort()).toEqual(['authorizeUrl', 'challengeId', 'expiresAt', 'userCode']);
    // Digits only, so it never looks like the one-time code the page gives back (K7QM-3XTP).
    expect(userCode).toMatch(/^\d{3}-\d{3}$/);
    expect(challengeId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorizeUrl).toBe(`https://cms.example.test/studio/cli/authorize?challenge=${challengeId}`);
    const lifetime = new Date(expiresAt).getTime() - before;
    expect(lifetime).toBeGreaterThanOrEqual(10 * 60_000 - 1000);
    expect(lifetime).toBeLessThanOrEqual(10 * 60_000 + 5000);
  });

  it('stores only hashes of the challenge id', async () => {
    const started = await startChallenge(t.url, TARGET);
    const { challengeId } = started.body.data;
    const rows = await t.db.query<{ text: string }>(
      `select concat_ws(' ', encode(id_hash, 'escape'), project, environment) as text from cli_challenges`,
    );
    expect(rows.rows.some((row) => row.text.includes(challengeId))).toBe(false);
  });

  it('accepts a loopback callback and refuses any other address', async () => {
    const ok = await startChallenge(t.url, { ...TARGET, callbackUrl: 'http://127.0.0.1:53682/callback' });
    expect(ok.status, ok.text).toBe(200);
    expect((await startChallenge(t.url, { ...TARGET, callbackUrl: 'http://localhost:8123/' })).status).toBe(200);
    for (const callbackUrl of [
      'https://127.0.0.1:53682/',
      'http://evil.example:53682/',
      'http://127.0.0.1/callback',
      'http://user@127.0.0.1:4/',
      'not a url',
    ]) {
      expectError(await startChallenge(t.url, { ...TARGET, callbackUrl }), 400, 'INVALID_INPUT');
    }
  });

  it(`lets one address start ${CLI_STARTS_PER_ADDRESS} in 10 minutes, then RATE_LIMITED with Retry-After until the oldest is 10 minutes old`, async () => {
    let moved = 0;
    const advance = (ms: number) => {
      time.advance(ms);
      moved += ms;
    };
    // Frozen: 20 starts on a loaded machine take real seconds, which would shorten the wait asserted below.
    time.freeze();
    try {
      for (let i = 0; i < CLI_STARTS_PER_ADDRESS; i += 1) {
        const started = await startChallenge(t.url, TARGET);
        expect(started.status, started.text).toBe(200);
        advance(1_000);
      }
      const refused = await startChallenge(t.url, TARGET);
      expectError(refused, 429, 'RATE_LIMITED');
      expect(refused.body.error.message).toContain('retry in');
      // The oldest counted start was 20 s ago on the server's clock: it leaves the window in 580 s.
      const wait = Number(refused.headers.get('retry-after'));
      expect(wait).toBe(CLI_START_WINDOW_MS / 1000 - CLI_STARTS_PER_ADDRESS);
      expect(refused.body.error.details).toEqual({ retryAfterSeconds: wait });
      const stored = await t.db.query<{ n: number }>(
        'select count(*)::int as n from cli_challenges where client_key is not null',
      );
      expect(stored.rows[0]?.n).toBe(CLI_STARTS_PER_ADDRESS);
      // Once the oldest is out of the window, one more may start.
      advance(wait * 1000);
      expect((await startChallenge(t.url, TARGET)).status).toBe(200);
      expectError(await startChallenge(t.url, TARGET), 429, 'RATE_LIMITED');
    } finally {
      time.advance(-moved);
      time.thaw();
    }
  });

  it('needs project and environment', async () => {
    expectError(await startChallenge(t.url, { project: 'default' }), 400, 'INVALID_INPUT');
    expectError(await startChallenge(t.url, { project: 'Bad Slug', environment: 'production' }), 400, 'INVALID_INPUT');
  });
});

describe('the authorize page', () => {
  it('shows a signed-in user the project, environment, status, callback and expiry', async () => {
    const session = await signInAs(t, { grants: editorGrant });
    const started = await startChallenge(t.url, { ...TARGET, callbackUrl: 'http://127.0.0.1:4567/done' });
    const { challengeId, expiresAt, userCode } = started.body.data;
    const shown = await asSession(t.url, session, 'GET', `/api/v1/auth/cli/challenges/${challengeId}`, {
      project: null,
      environment: null,
    });
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.data).toEqual({
      challengeId,
      project: 'default',
      environment: 'production',
      status: 'pending',
      callbackUrl: 'http://127.0.0.1:4567/done',
      userCode,
      expiresAt,
    });
  });

  it('is for sessions only: no credentials UNAUTHORIZED, an API key FORBIDDEN, unknown id NOT_FOUND', async () => {
    const started = await startChallenge(t.url, TARGET);
    const path = `/api/v1/auth/cli/challenges/${started.body.data.challengeId}`;
    expectError(await sendRequest(t.url, null, 'GET', path, { project: null, environment: null }), 401, 'UNAUTHORIZED');
    expectError(await t.request('GET', path, { project: null, environment: null }), 403, 'FORBIDDEN');
    const session = await signInAs(t, { grants: editorGrant });
    const unknown = `/api/v1/auth/cli/challenges/${'A'.repeat(43)}`;
    expectError(
      await asSession(t.url, session, 'GET', unknown, { project: null, environment: null }),
      404,
      'NOT_FOUND',
    );
    const garbage = '/api/v1/auth/cli/challenges/nope';
    expectError(
      await asSession(t.url, session, 'GET', garbage, { project: null, environment: null }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('authorize', () => {
  it('needs the CSRF header with a session, and refuses API keys', async () => {
    const session = await signInAs(t, { grants: editorGrant });
    const { challengeId } = (await startChallenge(t.url, TARGET)).body.data;
    const noCsrf = await asSession(t.url, session, 'POST', '/api/v1/auth/cli/authorize', {
      body: { challengeId },
      csrf: false,
      project: null,
      environment: null,
    });
    expectError(noCsrf, 403, 'CSRF_INVALID');
    const byKey = await t.request('POST', '/api/v1/auth/cli/authorize', {
      body: { challengeId },
      project: null,
      environment: null,
    });
    expectError(byKey, 403, 'FORBIDDEN');
  });

  it('refuses a user who cannot read that project or environment, without saying whether it exists', async () => {
    const outsider = await signInAs(t, { grants: [] });
    const { challengeId } = (await startChallenge(t.url, TARGET)).body.data;
    expectError(await authorize(t.url, outsider, challengeId), 403, 'FORBIDDEN');
    const ghost = (await startChallenge(t.url, { project: 'no-such-project', environment: 'production' })).body.data;
    expectError(await authorize(t.url, outsider, ghost.challengeId), 403, 'FORBIDDEN');
    const admin = await signInAs(t, { role: 'admin' });
    expectError(await authorize(t.url, admin, ghost.challengeId), 404, 'PROJECT_NOT_FOUND');
    const noEnv = (await startChallenge(t.url, { project: 'default', environment: 'nowhere' })).body.data;
    expectError(await authorize(t.url, admin, noEnv.challengeId), 404, 'ENVIRONMENT_NOT_FOUND');
  });

  it('answers a one-time code once; a second approval is INVALID_INPUT; unknown challenge NOT_FOUND', async () => {
    const session = await signInAs(t, { grants: editorGrant });
    const { challengeId } = (await startChallenge(t.url, TARGET)).body.data;
    const approved = await authorize(t.url, session, challengeId);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.data).toEqual({ success: true, code: expect.stringMatching(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/) });
    expectError(await authorize(t.url, session, challengeId), 400, 'INVALID_INPUT');
    expectError(await authorize(t.url, session, 'B'.repeat(43)), 404, 'NOT_FOUND');
    const rows = await t.db.query<{ codeHash: Buffer }>('select code_hash as "codeHash" from cli_challenges');
    const code = approved.body.data.code as string;
    expect(rows.rows.some((row) => row.codeHash?.toString('latin1').includes(code))).toBe(false);
  });
});

describe('deny', () => {
  it('needs a session and the CSRF header; API keys and anonymous callers cannot deny', async () => {
    const session = await signInAs(t, { grants: editorGrant });
    const { challengeId } = (await startChallenge(t.url, TARGET)).body.data;
    const noCsrf = await asSession(t.url, session, 'POST', '/api/v1/auth/cli/deny', {
      body: { challengeId },
      csrf: false,
      project: null,
      environment: null,
    });
    expectError(noCsrf, 403, 'CSRF_INVALID');
    const byKey = await t.request('POST', '/api/v1/auth/cli/deny', {
      body: { challengeId },
      project: null,
      environment: null,
    });
    expectError(byKey, 403, 'FORBIDDEN');
    const anonymous = await sendRequest(t.url, null, 'POST', '/api/v1/auth/cli/deny', {
      body: { challengeId },
      project: null,
      environment: null,
    });
    expectError(anonymous, 401, 'UNAUTHORIZED');
    expectError(await deny(t.url, session, 'C'.repeat(43)), 404, 'NOT_FOUND');
    expect((await poll(t.url, challengeId)).body.data).toEqual({ status: 'pending' });
  });

  it('tells the waiting command at once: poll says denied, approve and exchange are FORBIDDEN access_denied', async () => {
    const session = await signInAs(t, { grants: editorGrant });
    const { challengeId } = (await startChallenge(t.url, TARGET)).body.data;
    const denied = await deny(t.url, session, challengeId);
    expect(denied.status, denied.text).toBe(200);
    expect(denied.body.data).toEqual({ success: true });
    // Denying again changes nothing and is not an error (a second click, a second tab).
    expect((await deny(t.url, session, challengeId)).status).toBe(200);

    const polled = await poll(t.url, challengeId);
    expect(polled.status, polled.text).toBe(200);
    expect(polled.body.data).toEqual({ status: 'denied' });

    const approve = await authorize(t.url, session, challengeId);
    expectError(approve, 403, 'FORBIDDEN');
    expect(approve.body.error.details).toEqual({ reason: 'access_denied' });
    const exchanged = await exchange(t.url, challengeId, 'K7QM-3XTP');
    expectError(exchanged, 403, 'FORBIDDEN');
    expect(exchanged.body.error.details).toEqual({ reason: 'access_denied' });
    expect(exchanged.body.error.message).toMatch(/denied/);
    // A denial is no wrong code: nothing was counted against the challenge.
    const rows = await t.db.query<{ failedAttempts: number; state: string }>(
      'select failed_attempts as "failedAttempts", state from cli_challenges where denied_at is not null',
    );
    expect(rows.rows.length).toBeGreaterThan(0);
    expect(rows.rows.every((row) => row.failedAttempts === 0 && row.state === 'denied')).toBe(true);
  });

  it('cannot take back an approval: denying an approved challenge is INVALID_INPUT and the code still works', async () => {
    const session = await signInAs(t, { grants: editorGrant });
    const { challengeId } = (await startChallenge(t.url, TARGET)).body.data;
    const { code } = (await authorize(t.url, session, challengeId)).body.data;
    expectError(await deny(t.url, session, challengeId), 400, 'INVALID_INPUT');
    expect((await poll(t.url, challengeId)).body.data).toEqual({ status: 'authorized' });
    expect((await exchange(t.url, challengeId, code)).status).toBe(200);
    expect((await poll(t.url, challengeId)).body.data).toEqual({ status: 'exchanged' });
  });
});

describe('poll', () => {
  it('needs no credentials; unknown challenge NOT_FOUND; expired FORBIDDEN', async () => {
    const { challengeId } = (await startChallenge(t.url, TARGET)).body.data;
    const polled = await poll(t.url, challengeId);
    expect(polled.status, polled.text).toBe(200);
    expect(polled.body.data).toEqual({ status: 'pending' });
    expectError(await poll(t.url, 'D'.repeat(43)), 404, 'NOT_FOUND');
    expectError(await poll(t.url, 'nope'), 404, 'NOT_FOUND');
    time.advance(10 * 60_000 + 1000);
    try {
      const expired = await poll(t.url, challengeId);
      expectError(expired, 403, 'FORBIDDEN');
      expect(expired.body.error.message).toMatch(/restart/);
    } finally {
      time.advance(-(10 * 60_000 + 1000));
    }
  });
});

describe('exchange', () => {
  it("gives a 90-day cms_key_cli_ key with the user's capabilities in that one project/environment", async () => {
    const session = await signInAs(t, { grants: editorGrant });
    const { challengeId } = (await startChallenge(t.url, TARGET)).body.data;
    const { code } = (await authorize(t.url, session, challengeId)).body.data;
    const before = Date.now();
    // Codes are compared without case or dashes, as people retype them.
    const exchanged = await exchange(t.url, challengeId, code.replace('-', '').toLowerCase());
    expect(exchanged.status, exchanged.text).toBe(200);
    const { apiKey, expiresAt } = exchanged.body.data;
    expect(apiKey).toMatch(/^cms_key_cli_[A-Za-z0-9_-]{43}$/);
    const days = (new Date(expiresAt).getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThan(89.99);
    expect(days).toBeLessThan(90.01);

    const me = await sendRequest(t.url, apiKey, 'GET', '/api/v1/me');
    expect(me.status, me.text).toBe(200);
    expect(me.body.data.capabilities).toMatchObject({
      'content.read': true,
      'content.write': true,
      'content.publish': true,
      'schema.write': false,
      'settings.manage': false,
      'users.manage': false,
    });
    expectError(
      await sendRequest(t.url, apiKey, 'GET', '/api/v1/users', { project: null, environment: null }),
      403,
      'FORBIDDEN',
    );
  });

  it('acts nowhere else: another environment of the same project is FORBIDDEN', async () => {
    const created = await t.request('POST', '/api/v1/environments', {
      body: { name: 'staging-cli' },
      environment: null,
    });
    expect(created.status, created.text).toBe(201);
    const session = await signInAs(t, { grants: editorGrant });
    const apiKey = await signInCli(t.url, session);
    const elsewhere = await sendRequest(t.url, apiKey, 'GET', '/api/v1/content/overview', {
      environment: 'staging-cli',
    });
    expectError(elsewhere, 403, 'FORBIDDEN');
  });

  it('a wrong code is INVALID_INPUT and counts; a used code is INVALID_INPUT; unknown challenge NOT_FOUND', async () => {
    const session = await signInAs(t, { grants: editorGrant });
    const { challengeId } = (await startChallenge(t.url, TARGET)).body.data;
    // Before approval there is no right code: any code is wrong.
    expectError(await exchange(t.url, challengeId, 'AAAA-AAAA'), 400, 'INVALID_INPUT');
    const { code } = (await authorize(t.url, session, challengeId)).body.data;
    const wrong = await exchange(t.url, challengeId, 'ZZZZ-ZZZZ');
    expectError(wrong, 400, 'INVALID_INPUT');
    expect(wrong.body.error.message).toContain('3 tries left');
    expect((await exchange(t.url, challengeId, code)).status).toBe(200);
    expectError(await exchange(t.url, challengeId, code), 400, 'INVALID_INPUT');
    expectError(await exchange(t.url, 'C'.repeat(43), code), 404, 'NOT_FOUND');
    expectError(await exchange(t.url, 'short', code), 404, 'NOT_FOUND');
  });

  it('five wrong codes kill the challenge: even the right code is FORBIDDEN afterwards', async () => {
    const session = await signInAs(t, { grants: editorGrant });
    const { challengeId } = (await startChallenge(t.url, TARGET)).body.data;
    const { code } = (await authorize(t.url, session, challengeId)).body.data;
    for (let i = 0; i < 5; i += 1) expectError(await exchange(t.url, challengeId, 'WRNG-CODE'), 400, 'INVALID_INPUT');
    const killed = await exchange(t.url, challengeId, code);
    expectError(killed, 403, 'FORBIDDEN');
    expect(killed.body.error.message).toMatch(/again/);
  });

  it('concurrent exchanges of one code give one key', async () => {
    const session = await signInAs(t, { grants: editorGrant });
    const { challengeId } = (await startChallenge(t.url, TARGET)).body.data;
    const { code } = (await authorize(t.url, session, challengeId)).body.data;
    const answers = await Promise.all([1, 2, 3].map(() => exchange(t.url, challengeId, code)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400]);
  });
});

describe('expiry', () => {
  it('after 10 minutes a challenge cannot be shown, approved or exchanged: FORBIDDEN, restart', async () => {
    const session = await signInAs(t, { grants: editorGrant });
    const pending = (await startChallenge(t.url, TARGET)).body.data.challengeId;
    const approved = (await startChallenge(t.url, TARGET)).body.data.challengeId;
    const { code } = (await authorize(t.url, session, approved)).body.data;
    time.advance(10 * 60_000 + 1000);
    try {
      const shown = await asSession(t.url, session, 'GET', `/api/v1/auth/cli/challenges/${pending}`, {
        project: null,
        environment: null,
      });
      expectError(shown, 403, 'FORBIDDEN');
      expect(shown.body.error.message).toMatch(/restart/);
      expectError(await authorize(t.url, session, pending), 403, 'FORBIDDEN');
      expectError(await exchange(t.url, approved, code), 403, 'FORBIDDEN');
    } finally {
      time.advance(-(10 * 60_000 + 1000));
    }
  });
});

describe('the key afterwards', () => {
  it('is listed with kind cli and the approving user, and stops working when revoked', async () => {
    const session = await signInAs(t, { grants: editorGrant });
    const apiKey = await signInCli(t.url, session);
    const listed = await t.request('GET', '/api/v1/api-keys', { project: null, environment: null });
    const entry = listed.body.data.find((key: { prefix: string }) => apiKey.startsWith(key.prefix));
    expect(entry).toMatchObject({
      kind: 'cli',
      createdBy: session.userId,
      contextAllowlist: [TARGET],
      label: `cms CLI: ${session.email} (default/production)`,
    });
    expect(entry.scopes).toContain('content:write');
    const revoked = await t.request('DELETE', `/api/v1/api-keys/${entry.id}`, { project: null, environment: null });
    expect(revoked.status, revoked.text).toBe(200);
    expectError(await sendRequest(t.url, apiKey, 'GET', '/api/v1/me'), 401, 'UNAUTHORIZED');
  });

  it("follows the user's current role: a demotion cuts it at once, a disabled user stops it", async () => {
    const session = await signInAs(t, { grants: editorGrant });
    const apiKey = await signInCli(t.url, session);
    const capabilities = async () => (await sendRequest(t.url, apiKey, 'GET', '/api/v1/me')).body.data.capabilities;
    expect(await capabilities()).toMatchObject({ 'content.write': true, 'content.publish': true });

    const demoted = await t.request('PUT', `/api/v1/users/${session.userId}/grants`, {
      body: [{ project: 'default', environment: '*', role: 'viewer' }],
      project: null,
      environment: null,
    });
    expect(demoted.status, demoted.text).toBe(200);
    expect(await capabilities()).toMatchObject({
      'content.read': true,
      'content.write': false,
      'content.publish': false,
    });

    // Promotion never adds to the key: it holds at most what it was issued with.
    await t.request('PATCH', `/api/v1/users/${session.userId}`, {
      body: { role: 'admin' },
      project: null,
      environment: null,
    });
    expect(await capabilities()).toMatchObject({
      'content.write': true,
      'schema.write': false,
      'settings.manage': false,
    });

    await t.request('PATCH', `/api/v1/users/${session.userId}`, {
      body: { disabled: true },
      project: null,
      environment: null,
    });
    expectError(await sendRequest(t.url, apiKey, 'GET', '/api/v1/me'), 401, 'UNAUTHORIZED');
  });

  it('is not issued when the approving user lost access before the exchange', async () => {
    const session = await signInAs(t, { grants: editorGrant });
    const { challengeId } = (await startChallenge(t.url, TARGET)).body.data;
    const { code } = (await authorize(t.url, session, challengeId)).body.data;
    await t.request('PUT', `/api/v1/users/${session.userId}/grants`, { body: [], project: null, environment: null });
    expectError(await exchange(t.url, challengeId, code), 403, 'FORBIDDEN');
  });
});
