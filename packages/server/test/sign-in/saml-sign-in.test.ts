import { createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSession, uniqueEmail } from '../identity/identity-helpers.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import {
  type AssertionFields,
  assertionXml,
  generateIdpKeys,
  readRedirect,
  responseXml,
  signAssertion,
  type TestIdpKeys,
} from './saml-test-idp.js';

const PUBLIC_URL = 'https://cms.example.test';
const ENTITY_ID = `${PUBLIC_URL}/api/v1/auth/saml/metadata`;
const ACS = `${PUBLIC_URL}/api/v1/auth/saml/acs`;
const IDP_ISSUER = 'https://idp.example.test/saml';
const ENTRY_POINT = 'https://idp.example.test/sso';

let idp: TestIdpKeys;
let stranger: TestIdpKeys;
let t: TestServer;

beforeAll(async () => {
  [idp, stranger] = await Promise.all([generateIdpKeys('idp'), generateIdpKeys('stranger')]);
  t = await startTestServer({
    env: {
      CMS_PUBLIC_URL: PUBLIC_URL,
      CMS_SAML_PROVIDERS: JSON.stringify([
        { slug: 'corp-saml', label: 'Corp SAML', entryPoint: ENTRY_POINT, idpIssuer: IDP_ISSUER, idpCert: idp.cert },
      ]),
    },
  });
});
afterAll(() => t?.close());

/** The binding cookie each started sign-in left in "the browser", by AuthnRequest id. */
const bindings = new Map<string, string>();
let lastBinding: string | null = null;

/** The value of a Set-Cookie of `name` in an answer, or undefined. */
function cookieOf(answer: { headers: Headers }, name: string): string | undefined {
  return answer.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith(`${name}=`))
    ?.split(';')[0]
    ?.slice(name.length + 1);
}

/** Starts a sign-in; answers the AuthnRequest id the IdP must answer to (and keeps its binding cookie). */
async function startSignIn(): Promise<string> {
  const started = await sendRequest(t.url, null, 'POST', '/api/v1/auth/sso/corp-saml');
  expect(started.status, started.text).toBe(200);
  const { id } = readRedirect(started.body.data.redirectUrl);
  const binding = cookieOf(started, 'cms_saml');
  expect(binding).toBeTruthy();
  bindings.set(id, binding as string);
  lastBinding = binding as string;
  return id;
}

function fields(requestId: string, overrides: Partial<AssertionFields> = {}): AssertionFields {
  const now = Date.now();
  return {
    issuer: IDP_ISSUER,
    email: uniqueEmail('saml'),
    audience: ENTITY_ID,
    recipient: ACS,
    inResponseTo: requestId,
    notBefore: new Date(now - 60_000),
    notOnOrAfter: new Date(now + 5 * 60_000),
    ...overrides,
  };
}

function response(requestId: string, inner: string): string {
  return responseXml({ issuer: IDP_ISSUER, destination: ACS, inResponseTo: requestId }, inner);
}

/**
 * Posts an answer to the ACS as the browser that started its sign-in does: with that sign-in's binding
 * cookie, and the RelayState the IdP echoes (by default the sign-in its InResponseTo names, else the
 * last one started). `browser` overrides both.
 */
function postAcs(xml: string, browser?: { cookie: string | null; relayState: string }) {
  const inResponseTo = /InResponseTo="([^"]+)"/.exec(xml)?.[1] ?? '';
  const binding = bindings.get(inResponseTo) ?? lastBinding;
  const { cookie, relayState } = browser ?? { cookie: binding, relayState: binding ?? '' };
  const form = new URLSearchParams({ SAMLResponse: Buffer.from(xml).toString('base64'), RelayState: relayState });
  return sendRequest(t.url, null, 'POST', '/api/v1/auth/saml/acs', {
    rawBody: form.toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie: `cms_saml=${cookie}` } : {}),
    },
    project: null,
    environment: null,
  });
}

function expectFailure(answer: { status: number; headers: Headers }, code: string, reason: string) {
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get('location') as string);
  expect(`${location.origin}${location.pathname}`).toBe(`${PUBLIC_URL}/studio/login`);
  expect(Object.fromEntries(location.searchParams)).toEqual({ error: code, reason });
  // No session; at most the binding cookie cleared (it serves once).
  const cookies = answer.headers.getSetCookie();
  expect(cookies.filter((cookie) => !cookie.startsWith('cms_saml=;'))).toEqual([]);
}

async function expectSignedIn(answer: { status: number; headers: Headers; text: string }, email: string) {
  expect(answer.status, answer.text).toBe(302);
  expect(answer.headers.get('location')).toBe(`${PUBLIC_URL}/studio/`);
  const cookies = answer.headers.getSetCookie();
  const value = (name: string) =>
    cookies
      .find((c) => c.startsWith(`${name}=`))
      ?.split(';')[0]
      ?.slice(name.length + 1) ?? '';
  expect(cookies.find((c) => c.startsWith('__Host-cms_session='))).toMatch(/HttpOnly.*Secure|Secure.*HttpOnly/);
  const session = { token: value('__Host-cms_session'), csrf: decodeURIComponent(value('__Host-cms_csrf')) };
  const me = await asSession(t.url, session, 'GET', '/api/v1/me', { project: null, environment: null });
  expect(me.status, me.text).toBe(200);
  expect(me.body.data).toMatchObject({ principalType: 'user', email, role: 'viewer' });
}

describe('service provider metadata', () => {
  it('describes signed requests, wanted signed assertions and the HTTP-POST ACS, as XML', async () => {
    const answer = await sendRequest(t.url, null, 'GET', '/api/v1/auth/saml/metadata', {
      project: null,
      environment: null,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(answer.text).toContain(`entityID="${ENTITY_ID}"`);
    expect(answer.text).toMatch(/AuthnRequestsSigned="true"/);
    expect(answer.text).toMatch(/WantAssertionsSigned="true"/);
    expect(answer.text).toMatch(
      new RegExp(
        `AssertionConsumerService[^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]*Location="${ACS}"`,
      ),
    );
    expect(answer.text).toMatch(/<ds:X509Certificate>[A-Za-z0-9+/=\s]+<\/ds:X509Certificate>/);
  });
});

describe('starting a sign-in', () => {
  it('redirects to the entry point with an AuthnRequest signed by the key of the metadata (HTTP-Redirect)', async () => {
    const started = await sendRequest(t.url, null, 'POST', '/api/v1/auth/sso/corp-saml');
    expect(started.status, started.text).toBe(200);
    const redirectUrl: string = started.body.data.redirectUrl;
    expect(redirectUrl.startsWith(`${ENTRY_POINT}?`)).toBe(true);
    const request = readRedirect(redirectUrl);
    expect(request.xml).toContain(`AssertionConsumerServiceURL="${ACS}"`);
    expect(request.xml).toMatch(new RegExp(`<saml:Issuer[^>]*>${ENTITY_ID}</saml:Issuer>`));
    expect(request.sigAlg).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');

    const metadata = await sendRequest(t.url, null, 'GET', '/api/v1/auth/saml/metadata', {
      project: null,
      environment: null,
    });
    const base64 = /<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/
      .exec(metadata.text)?.[1]
      ?.replace(/\s/g, '') as string;
    const pem = `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)?.join('\n')}\n-----END CERTIFICATE-----\n`;
    const valid = verify(
      'sha256',
      Buffer.from(request.signedPart),
      createPublicKey(pem),
      Buffer.from(request.signature, 'base64'),
    );
    expect(valid).toBe(true);
  });
});

describe('the browser binding (https)', () => {
  it('sets an HttpOnly, Secure, SameSite=None cookie for the ACS only, holding the RelayState sent to the IdP', async () => {
    const started = await sendRequest(t.url, null, 'POST', '/api/v1/auth/sso/corp-saml');
    const cookie = started.headers.getSetCookie().find((c) => c.startsWith('cms_saml=')) as string;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Secure/i);
    expect(cookie).toMatch(/SameSite=None/i);
    expect(cookie).toMatch(/Path=\/api\/v1\/auth\/saml\/acs/);
    expect(cookie).toMatch(/Max-Age=600/);
    const relayState = new URL(started.body.data.redirectUrl).searchParams.get('RelayState');
    expect(relayState).toBe(cookieOf(started, 'cms_saml'));
    expect(relayState).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("refuses a valid answer posted by a browser without the cookie, or with another sign-in's", async () => {
    const requestId = await startSignIn();
    const own = bindings.get(requestId) as string;
    const assertion = fields(requestId);
    const xml = response(requestId, signAssertion(assertionXml(assertion), idp));
    // The attacker's own answer, made to land in a victim's browser: no cookie there.
    expectFailure(await postAcs(xml, { cookie: null, relayState: own }), 'UNAUTHORIZED', 'browser_mismatch');
    // The victim started a sign-in of their own: their cookie, the attacker's RelayState.
    await startSignIn();
    const victims = lastBinding as string;
    expectFailure(await postAcs(xml, { cookie: victims, relayState: own }), 'UNAUTHORIZED', 'browser_mismatch');
    const created = await t.db.query('select 1 from users where email = $1', [assertion.email]);
    expect(created.rowCount).toBe(0);
    // The browser that started it still can (the refusals above used nothing up).
    await expectSignedIn(await postAcs(xml), assertion.email);
  });
});

describe('the browser binding over plain http', () => {
  it('is not set (browsers refuse SameSite=None without Secure), and the sign-in works without it', async () => {
    const plain = await startTestServer({
      env: {
        CMS_PUBLIC_URL: 'http://cms.example.test',
        CMS_SAML_PROVIDERS: JSON.stringify([
          { slug: 'corp-saml', label: 'Corp SAML', entryPoint: ENTRY_POINT, idpIssuer: IDP_ISSUER, idpCert: idp.cert },
        ]),
      },
    });
    try {
      const started = await sendRequest(plain.url, null, 'POST', '/api/v1/auth/sso/corp-saml');
      expect(started.status, started.text).toBe(200);
      expect(cookieOf(started, 'cms_saml')).toBeUndefined();
      const { id } = readRedirect(started.body.data.redirectUrl);
      const acs = 'http://cms.example.test/api/v1/auth/saml/acs';
      const assertion = fields(id, { audience: 'http://cms.example.test/api/v1/auth/saml/metadata', recipient: acs });
      const xml = responseXml(
        { issuer: IDP_ISSUER, destination: acs, inResponseTo: id },
        signAssertion(assertionXml(assertion), idp),
      );
      const form = new URLSearchParams({ SAMLResponse: Buffer.from(xml).toString('base64'), RelayState: '' });
      const answer = await sendRequest(plain.url, null, 'POST', '/api/v1/auth/saml/acs', {
        rawBody: form.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        project: null,
        environment: null,
      });
      expect(answer.status, answer.text).toBe(302);
      expect(answer.headers.get('location')).toBe('http://cms.example.test/studio/');
      expect(cookieOf(answer, 'cms_session')).toBeTruthy();
    } finally {
      await plain.close();
    }
  });
});

describe('the assertion consumer service', () => {
  it('signs in the user of a valid signed assertion: session cookies and 302 to the Studio', async () => {
    const requestId = await startSignIn();
    const assertion = fields(requestId);
    await expectSignedIn(
      await postAcs(response(requestId, signAssertion(assertionXml(assertion), idp))),
      assertion.email,
    );
  });

  it('refuses an unsigned assertion', async () => {
    const requestId = await startSignIn();
    expectFailure(
      await postAcs(response(requestId, assertionXml(fields(requestId)))),
      'UNAUTHORIZED',
      'response_invalid',
    );
  });

  it('refuses an assertion signed by another key', async () => {
    const requestId = await startSignIn();
    const xml = response(requestId, signAssertion(assertionXml(fields(requestId)), stranger));
    expectFailure(await postAcs(xml), 'UNAUTHORIZED', 'response_invalid');
  });

  it('refuses a wrapped signature: a forged assertion around or beside a genuinely signed one', async () => {
    const requestId = await startSignIn();
    const genuine = fields(requestId, { email: uniqueEmail('victim') });
    const signed = signAssertion(assertionXml(genuine), idp);
    const signedId = /ID="([^"]+)"/.exec(signed)?.[1] as string;
    const forged = assertionXml(fields(requestId, { email: 'attacker@example.test', assertionId: signedId }));
    // The genuine assertion hidden inside the forged one (XSW: the forged one is what a naive reader sees).
    const nested = forged.replace('</saml:Subject>', `</saml:Subject><saml:Advice>${signed}</saml:Advice>`);
    expectFailure(await postAcs(response(requestId, nested)), 'UNAUTHORIZED', 'response_invalid');

    // The genuine assertion moved to the response's extensions, the forged one in its place.
    const beside = response(requestId, forged).replace(
      '<samlp:Status>',
      `<samlp:Extensions>${signed}</samlp:Extensions><samlp:Status>`,
    );
    const secondRequest = await startSignIn();
    expectFailure(await postAcs(beside.replaceAll(requestId, secondRequest)), 'UNAUTHORIZED', 'response_invalid');

    // Two assertions side by side, the forged one first.
    const thirdRequest = await startSignIn();
    const twice = response(thirdRequest, `${forged}${signed}`.replaceAll(requestId, thirdRequest));
    expectFailure(await postAcs(twice), 'UNAUTHORIZED', 'response_invalid');
    const attacker = await t.db.query(`select 1 from users where email = 'attacker@example.test'`);
    expect(attacker.rowCount).toBe(0);
  });

  it('refuses an assertion for another audience', async () => {
    const requestId = await startSignIn();
    const xml = response(
      requestId,
      signAssertion(assertionXml(fields(requestId, { audience: 'https://other.example/sp' })), idp),
    );
    expectFailure(await postAcs(xml), 'UNAUTHORIZED', 'response_invalid');
  });

  it('refuses an assertion for another recipient', async () => {
    const requestId = await startSignIn();
    const xml = response(
      requestId,
      signAssertion(assertionXml(fields(requestId, { recipient: 'https://other.example/acs' })), idp),
    );
    expectFailure(await postAcs(xml), 'UNAUTHORIZED', 'response_invalid');
  });

  it('refuses an expired assertion, and one not valid yet (beyond the clock skew)', async () => {
    const now = Date.now();
    const expiredRequest = await startSignIn();
    const expired = fields(expiredRequest, {
      notBefore: new Date(now - 20 * 60_000),
      notOnOrAfter: new Date(now - 5 * 60_000),
    });
    expectFailure(
      await postAcs(response(expiredRequest, signAssertion(assertionXml(expired), idp))),
      'UNAUTHORIZED',
      'response_invalid',
    );

    const earlyRequest = await startSignIn();
    const early = fields(earlyRequest, {
      notBefore: new Date(now + 5 * 60_000),
      notOnOrAfter: new Date(now + 10 * 60_000),
    });
    expectFailure(
      await postAcs(response(earlyRequest, signAssertion(assertionXml(early), idp))),
      'UNAUTHORIZED',
      'response_invalid',
    );
  });

  it('accepts an assertion within the small clock skew', async () => {
    const requestId = await startSignIn();
    const assertion = fields(requestId, { notBefore: new Date(Date.now() + 20_000) });
    await expectSignedIn(
      await postAcs(response(requestId, signAssertion(assertionXml(assertion), idp))),
      assertion.email,
    );
  });

  it('refuses a replayed assertion', async () => {
    const requestId = await startSignIn();
    const assertion = fields(requestId);
    const xml = response(requestId, signAssertion(assertionXml(assertion), idp));
    await expectSignedIn(await postAcs(xml), assertion.email);
    expectFailure(await postAcs(xml), 'UNAUTHORIZED', 'replayed');
  });

  it('refuses an answer to a request this service never sent (InResponseTo)', async () => {
    const xml = response('_never-sent', signAssertion(assertionXml(fields('_never-sent')), idp));
    expectFailure(await postAcs(xml), 'UNAUTHORIZED', 'response_invalid');
  });

  it('refuses a form without SAMLResponse', async () => {
    const answer = await sendRequest(t.url, null, 'POST', '/api/v1/auth/saml/acs', {
      rawBody: 'RelayState=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      project: null,
      environment: null,
    });
    expectFailure(answer, 'UNAUTHORIZED', 'response_invalid');
  });
});
