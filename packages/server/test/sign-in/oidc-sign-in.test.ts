import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSession, createUser, uniqueEmail } from '../identity/identity-helpers.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { movableClock } from './cli-helpers.js';
import {
  followBrowser,
  type OidcTestProvider,
  startOidcTestProvider,
  TEST_ID_TOKEN_TTL_SECONDS,
} from './oidc-test-provider.js';

const PUBLIC_URL = 'http://cms.test';
const SLUGS = ['test', 'corp'];
const time = movableClock();

let idp: OidcTestProvider;
let silent: Server;
let t: TestServer;
const logLines: Array<Record<string, any>> = [];

beforeAll(async () => {
  idp = await startOidcTestProvider(SLUGS.map((slug) => `${PUBLIC_URL}/api/v1/auth/sso/${slug}/callback`));
  // Accepts connections and never answers: an identity provider that hangs.
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const client = { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret };
  t = await startTestServer({
    clock: time.clock,
    logStream: { write: (line) => logLines.push(JSON.parse(line)) },
    env: {
      LOG_LEVEL: 'warn',
      CMS_PUBLIC_URL: PUBLIC_URL,
      CMS_SSO_TIMEOUT_SECONDS: '1',
      CMS_OIDC_PROVIDERS: JSON.stringify([
        { slug: 'test', label: 'Test IdP', ...client, matchExistingUsersByEmail: true },
        {
          slug: 'corp',
          ...client,
          defaultRole: 'author',
          allowedEmailDomains: ['corp.example'],
          project: 'default',
        },
        {
          slug: 'hanging',
          issuer: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
          clientId: 'x',
          clientSecret: 'y',
        },
      ]),
    },
  });
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
  silent?.close();
});

/** The binding cookie each started sign-in set, by its state: what the browser sends back. */
const bindings = new Map<string, string>();

/** Starts a sign-in at the CMS and answers the redirect address. */
async function startSignIn(slug: string): Promise<string> {
  const started = await sendRequest(t.url, null, 'POST', `/api/v1/auth/sso/${slug}`);
  expect(started.status, started.text).toBe(200);
  const redirectUrl: string = started.body.data.redirectUrl;
  const cookie = started.headers.getSetCookie().find((line) => line.startsWith('cms_sso='));
  expect(cookie).toMatch(/HttpOnly/);
  expect(cookie).toMatch(/SameSite=Lax/);
  expect(cookie).toMatch(/Path=\/api\/v1\/auth\/sso\//);
  bindings.set(new URL(redirectUrl).searchParams.get('state') as string, (cookie as string).split(';')[0] as string);
  return redirectUrl;
}

/** Runs the browser part at the identity provider; answers the CMS callback address it sends back to. */
async function throughProvider(redirectUrl: string, account: { email: string; email_verified?: boolean }) {
  idp.signInNext({ sub: account.email, email: account.email, email_verified: account.email_verified ?? true });
  return followBrowser(redirectUrl, (url) => url.startsWith(PUBLIC_URL));
}

/**
 * Calls the CMS callback as the browser that started the sign-in (its binding cookie, unless `cookie`
 * says otherwise); the public address is mapped onto the test server.
 */
function callback(callbackUrl: string, cookie?: string | null) {
  const state = new URL(callbackUrl).searchParams.get('state') ?? '';
  const sent = cookie === undefined ? bindings.get(state) : cookie;
  return sendRequest(t.url, null, 'GET', callbackUrl.slice(PUBLIC_URL.length), {
    project: null,
    environment: null,
    headers: sent ? { cookie: sent } : {},
  });
}

function expectFailure(response: { status: number; headers: Headers }, code: string, reason: string) {
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location') as string);
  expect(`${location.origin}${location.pathname}`).toBe(`${PUBLIC_URL}/studio/login`);
  expect(Object.fromEntries(location.searchParams)).toEqual({ error: code, reason });
  // No session: at most the spent binding cookie is cleared.
  expect(response.headers.getSetCookie().filter((line) => !line.startsWith('cms_sso=;'))).toEqual([]);
}

async function signedInUser(response: { status: number; headers: Headers }) {
  expect(response.status).toBe(302);
  expect(response.headers.get('location')).toBe(`${PUBLIC_URL}/studio/`);
  const cookies = response.headers.getSetCookie();
  const value = (name: string) =>
    cookies
      .find((c) => c.startsWith(`${name}=`))
      ?.split(';')[0]
      ?.slice(name.length + 1) ?? '';
  const session = { token: value('cms_session'), csrf: decodeURIComponent(value('cms_csrf')) };
  expect(cookies.find((c) => c.startsWith('cms_session='))).toMatch(/HttpOnly/);
  const me = await asSession(t.url, session, 'GET', '/api/v1/me', { project: null, environment: null });
  expect(me.status, me.text).toBe(200);
  return me.body.data;
}

describe('the provider list', () => {
  it('lists every configured provider with its kind and label, without credentials', async () => {
    const listed = await sendRequest(t.url, null, 'GET', '/api/v1/auth/providers', {
      project: null,
      environment: null,
    });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data).toEqual([
      { slug: 'test', kind: 'oidc', label: 'Test IdP' },
      { slug: 'corp', kind: 'oidc', label: 'corp' },
      { slug: 'hanging', kind: 'oidc', label: 'hanging' },
    ]);
  });

  it('answers NOT_FOUND for an unknown provider, on start and on callback', async () => {
    const started = await sendRequest(t.url, null, 'POST', '/api/v1/auth/sso/nope');
    expect(started.status).toBe(404);
    expect(started.body.error.code).toBe('NOT_FOUND');
    expectFailure(
      await callback(`${PUBLIC_URL}/api/v1/auth/sso/nope/callback?state=x&code=y`),
      'NOT_FOUND',
      'unknown_provider',
    );
  });
});

describe('signing in', () => {
  it('asks for a code with PKCE S256, state and nonce', async () => {
    const redirect = new URL(await startSignIn('test'));
    expect(redirect.origin).toBe(idp.issuer);
    expect(Object.fromEntries(redirect.searchParams)).toMatchObject({
      client_id: idp.clientId,
      response_type: 'code',
      code_challenge_method: 'S256',
      redirect_uri: `${PUBLIC_URL}/api/v1/auth/sso/test/callback`,
      scope: 'openid email profile',
    });
    for (const name of ['code_challenge', 'state', 'nonce'])
      expect(redirect.searchParams.get(name)).toMatch(/^.{40,}$/);
  });

  it('signs in the existing user with that verified email: session cookies and 302 to the Studio', async () => {
    const user = await createUser(t, { email: uniqueEmail('existing'), role: 'editor' });
    const back = await throughProvider(await startSignIn('test'), { email: user.email.toUpperCase() });
    const me = await signedInUser(await callback(back));
    expect(me).toMatchObject({ principalType: 'user', principalId: user.id, email: user.email, role: 'editor' });
  });

  it('creates a new user of an allowed domain with the default role and a grant on the project', async () => {
    const email = uniqueEmail('new').replace('example.test', 'corp.example');
    const me = await signedInUser(await callback(await throughProvider(await startSignIn('corp'), { email })));
    expect(me).toMatchObject({ email, role: 'author' });
    const user = await t.request('GET', `/api/v1/users/${me.principalId}/grants`, { project: null, environment: null });
    expect(user.body.data).toEqual([{ project: 'default', environment: '*', role: 'author' }]);
  });

  it('creates a user with the default viewer role when no domain list is set', async () => {
    const email = uniqueEmail('anyone');
    const me = await signedInUser(await callback(await throughProvider(await startSignIn('test'), { email })));
    expect(me).toMatchObject({ email, role: 'viewer' });
  });
});

describe('existing accounts', () => {
  it('are not signed in by a provider that does not opt in to matching by email', async () => {
    const user = await createUser(t, { email: uniqueEmail('local').replace('example.test', 'corp.example') });
    expectFailure(
      await callback(await throughProvider(await startSignIn('corp'), { email: user.email })),
      'FORBIDDEN',
      'account_not_linked',
    );
    const sessions = await t.db.query('select 1 from sessions where user_id = $1', [user.id]);
    expect(sessions.rowCount).toBe(0);
  });

  it('created by a provider sign in through it again, but not through another one without opt-in', async () => {
    const email = uniqueEmail('again').replace('example.test', 'corp.example');
    const first = await signedInUser(await callback(await throughProvider(await startSignIn('corp'), { email })));
    const again = await signedInUser(await callback(await throughProvider(await startSignIn('corp'), { email })));
    expect(again.principalId).toBe(first.principalId);
  });
});

describe('refusals: a 302 to the sign-in page with the code, no session', () => {
  it('an email outside the allowed domains is FORBIDDEN, and no user is created', async () => {
    const email = uniqueEmail('outsider');
    expectFailure(
      await callback(await throughProvider(await startSignIn('corp'), { email })),
      'FORBIDDEN',
      'email_domain_not_allowed',
    );
    const users = await t.db.query('select 1 from users where email = $1', [email]);
    expect(users.rowCount).toBe(0);
  });

  it('an unverified email is FORBIDDEN', async () => {
    const back = await throughProvider(await startSignIn('test'), {
      email: uniqueEmail('unverified'),
      email_verified: false,
    });
    expectFailure(await callback(back), 'FORBIDDEN', 'email_not_verified');
  });

  it('a disabled user is FORBIDDEN', async () => {
    const user = await createUser(t, { email: uniqueEmail('disabled') });
    await t.request('PATCH', `/api/v1/users/${user.id}`, {
      body: { disabled: true },
      project: null,
      environment: null,
    });
    expectFailure(
      await callback(await throughProvider(await startSignIn('test'), user)),
      'FORBIDDEN',
      'account_disabled',
    );
  });

  it('a wrong or missing state is UNAUTHORIZED', async () => {
    const back = new URL(await throughProvider(await startSignIn('test'), { email: uniqueEmail() }));
    const cookie = bindings.get(back.searchParams.get('state') as string) as string;
    back.searchParams.set('state', 'not-the-state-we-sent');
    expectFailure(await callback(back.href, cookie), 'UNAUTHORIZED', 'browser_mismatch');
    expectFailure(await callback(back.href, 'cms_sso=not-the-state-we-sent'), 'UNAUTHORIZED', 'state_invalid');
    back.searchParams.delete('state');
    expectFailure(await callback(back.href, cookie), 'UNAUTHORIZED', 'state_missing');
  });

  it('an answer brought to another browser (no or another binding cookie) is UNAUTHORIZED: no login CSRF', async () => {
    const back = await throughProvider(await startSignIn('test'), { email: uniqueEmail('csrf') });
    expectFailure(await callback(back, null), 'UNAUTHORIZED', 'browser_mismatch');
    const other = new URL(await startSignIn('test')).searchParams.get('state') as string;
    expectFailure(await callback(back, bindings.get(other) as string), 'UNAUTHORIZED', 'browser_mismatch');
    // The sign-in is still there for the browser that started it.
    await signedInUser(await callback(back));
  });

  it('a replayed answer is UNAUTHORIZED: the state is spent, and the code cannot serve another sign-in', async () => {
    const email = uniqueEmail('replay');
    const back = await throughProvider(await startSignIn('test'), { email });
    await signedInUser(await callback(back));
    expectFailure(await callback(back), 'UNAUTHORIZED', 'state_invalid');

    // The used code under a fresh, valid state: the provider refuses it.
    const fresh = new URL(await throughProvider(await startSignIn('test'), { email }));
    fresh.searchParams.set('code', new URL(back).searchParams.get('code') as string);
    expectFailure(await callback(fresh.href), 'UNAUTHORIZED', 'code_rejected');
  });

  it('an id token with another nonce is UNAUTHORIZED', async () => {
    const redirect = new URL(await startSignIn('test'));
    redirect.searchParams.set('nonce', 'a-nonce-this-server-never-issued-0123456789');
    const back = await throughProvider(redirect.href, { email: uniqueEmail('nonce') });
    expectFailure(await callback(back), 'UNAUTHORIZED', 'id_token_invalid');
  });

  it('an expired id token is UNAUTHORIZED', async () => {
    const back = await throughProvider(await startSignIn('test'), { email: uniqueEmail('late') });
    const late = (TEST_ID_TOKEN_TTL_SECONDS + 120) * 1000;
    time.advance(late);
    try {
      expectFailure(await callback(back), 'UNAUTHORIZED', 'id_token_invalid');
    } finally {
      time.advance(-late);
    }
  });

  it('an answer after 10 minutes is UNAUTHORIZED', async () => {
    const back = await throughProvider(await startSignIn('test'), { email: uniqueEmail('slow') });
    time.advance(11 * 60_000);
    try {
      expectFailure(await callback(back), 'UNAUTHORIZED', 'expired');
    } finally {
      time.advance(-11 * 60_000);
    }
  });

  it('a provider that refused the sign-in is UNAUTHORIZED', async () => {
    const state = new URL(await startSignIn('test')).searchParams.get('state') as string;
    const answer = `${PUBLIC_URL}/api/v1/auth/sso/test/callback?error=access_denied&state=${state}`;
    expectFailure(await callback(answer), 'UNAUTHORIZED', 'idp_error');
  });
});

describe('an identity provider that does not answer', () => {
  it('fails within the timeout with SERVICE_UNAVAILABLE instead of hanging', async () => {
    const started = Date.now();
    const answer = await sendRequest(t.url, null, 'POST', '/api/v1/auth/sso/hanging');
    expect(answer.status, answer.text).toBe(503);
    expect(answer.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(answer.body.error.message).toContain('hanging');
    expect(Date.now() - started).toBeLessThan(5000);
    // Like every 503, logged at warn with its cause: the request to the provider timed out.
    const warned = logLines.filter((line) => line.level === 40 && line.requestId === answer.body.error.requestId);
    expect(warned).toMatchObject([{ code: 'SERVICE_UNAVAILABLE', url: '/api/v1/auth/sso/hanging' }]);
    expect(warned[0]?.err?.message).toMatch(/timeout|aborted/i);
  });
});
