/**
 * Sign-in events on the instance log (docs/audit.md "How entries are written"): single sign-on (a new
 * user and a refusal), the command line's device flow (approval, denial, exchange), signing out and
 * ending a session. Password sign-in and revoked keys: audit-written-with-change.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/modules/core-system/secret-tokens.js';
import { asSession, signInAs, uniqueEmail } from '../identity/identity-helpers.js';
import { authorize, deny, exchange, startChallenge } from '../sign-in/cli-helpers.js';
import { followBrowser, type OidcTestProvider, startOidcTestProvider } from '../sign-in/oidc-test-provider.js';
import { sendRequest, startTestServer, type TestResponse, type TestServer } from '../support/test-server.js';
import { auditEntries } from './audit-helpers.js';

const PUBLIC_URL = 'http://cms.test';
const instance = { project: null, environment: null };

let idp: OidcTestProvider;
let t: TestServer;
beforeAll(async () => {
  idp = await startOidcTestProvider([`${PUBLIC_URL}/api/v1/auth/sso/corp/callback`]);
  t = await startTestServer({
    env: {
      CMS_PUBLIC_URL: PUBLIC_URL,
      CMS_OIDC_PROVIDERS: JSON.stringify([
        {
          slug: 'corp',
          issuer: idp.issuer,
          clientId: idp.clientId,
          clientSecret: idp.clientSecret,
          allowedEmailDomains: ['corp.example'],
        },
      ]),
    },
  });
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

/** The instance log's entry of one response. */
async function entryOf(response: TestResponse, action: string): Promise<any> {
  const requestId = response.headers.get('x-request-id');
  const entries = await auditEntries(t, { action }, instance);
  const entry = entries.find((candidate) => candidate.requestId === requestId);
  expect(entry, `${action} entry of request ${requestId}`).toBeDefined();
  return entry;
}

/** Signs in through the provider as a browser would; answers the CMS's callback response. */
async function ssoSignIn(email: string): Promise<TestResponse> {
  const started = await sendRequest(t.url, null, 'POST', '/api/v1/auth/sso/corp', instance);
  expect(started.status, started.text).toBe(200);
  const cookie = started.headers.getSetCookie().find((line) => line.startsWith('cms_sso='));
  idp.signInNext({ sub: email, email, email_verified: true });
  const back = await followBrowser(started.body.data.redirectUrl, (url) => url.startsWith(PUBLIC_URL));
  return sendRequest(t.url, null, 'GET', back.slice(PUBLIC_URL.length), {
    ...instance,
    headers: cookie ? { cookie: cookie.split(';')[0] ?? '' } : {},
  });
}

describe('sign-in events in the audit log', () => {
  it('single sign-on: a first sign-in names the user it created; a refused one says why', async () => {
    const email = uniqueEmail('sso').replace('example.test', 'corp.example');
    const signedIn = await ssoSignIn(email);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get('location')).toBe(`${PUBLIC_URL}/studio/`);
    const user = (await t.db.query<{ id: string }>('select id from users where email = $1', [email])).rows[0];
    expect(await entryOf(signedIn, 'auth.sso.callback')).toMatchObject({
      outcome: 'success',
      actor: { type: 'user', id: user?.id, label: email },
    });

    const outsider = uniqueEmail('outsider');
    const refused = await ssoSignIn(outsider);
    expect(refused.status).toBe(302);
    expect(await entryOf(refused, 'auth.sso.callback')).toMatchObject({
      outcome: 'denied',
      actor: { type: 'anonymous', label: outsider },
      changes: { error: 'FORBIDDEN', reason: 'email_domain_not_allowed' },
    });
  });

  it('single sign-on start: the pending request and its entry commit in one transaction', async () => {
    const started = await sendRequest(t.url, null, 'POST', '/api/v1/auth/sso/corp', instance);
    expect(started.status, started.text).toBe(200);
    const state = new URL(started.body.data.redirectUrl).searchParams.get('state') ?? '';
    const xminOf = async (sql: string, param: unknown) =>
      (await t.db.query<{ x: string }>(`select xmin::text as x from ${sql}`, [param])).rows[0]?.x;
    const request = await xminOf('sso_requests where state_hash = $1', hashToken(state));
    const entry = await xminOf('audit_entries where request_id = $1', started.headers.get('x-request-id'));
    expect(request).toBeDefined();
    expect(entry).toBe(request);
  });

  it('the device flow: approval and exchange name the user, a denial too; never the code or the key', async () => {
    const session = await signInAs(t, {
      role: 'editor',
      grants: [{ project: 'default', environment: '*', role: 'editor' }],
    });
    const target = { project: 'default', environment: 'production' };
    const started = await startChallenge(t.url, target);
    const { challengeId } = started.body.data;
    const approved = await authorize(t.url, session, challengeId);
    expect(approved.status, approved.text).toBe(200);
    const exchanged = await exchange(t.url, challengeId, approved.body.data.code);
    expect(exchanged.status, exchanged.text).toBe(200);
    const other = await startChallenge(t.url, target);
    const denied = await deny(t.url, session, other.body.data.challengeId);
    expect(denied.status, denied.text).toBe(200);

    const actor = { type: 'user', id: session.userId, label: session.email };
    const approval = await entryOf(approved, 'auth.cli.authorize');
    const exchangeEntry = await entryOf(exchanged, 'auth.cli.exchange');
    expect(approval).toMatchObject({ outcome: 'success', actor });
    expect(exchangeEntry).toMatchObject({ outcome: 'success', actor });
    expect(await entryOf(denied, 'auth.cli.deny')).toMatchObject({ outcome: 'success', actor });
    const written = JSON.stringify([approval, exchangeEntry]);
    expect(written).not.toContain(approved.body.data.code);
    expect(written).not.toContain(exchanged.body.data.apiKey);
  });

  it('ending a session and signing out: by the user, the ended session named', async () => {
    const session = await signInAs(t);
    const second = await signInAs(t);
    const ended = await asSession(t.url, second, 'DELETE', `/api/v1/auth/sessions/${second.sessionId}`, instance);
    expect(ended.status, ended.text).toBe(200);
    const loggedOut = await asSession(t.url, session, 'POST', '/api/v1/auth/logout', instance);
    expect(loggedOut.status, loggedOut.text).toBe(200);

    expect(await entryOf(ended, 'auth.sessions.end')).toMatchObject({
      outcome: 'success',
      actor: { type: 'user', id: second.userId },
      target: { id: second.sessionId },
    });
    expect(await entryOf(loggedOut, 'auth.logout')).toMatchObject({
      outcome: 'success',
      actor: { type: 'user', id: session.userId },
    });
  });
});
