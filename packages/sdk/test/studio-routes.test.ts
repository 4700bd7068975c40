/** The routes the Studio calls besides content and sign-in: its bootstrap and the start of single sign-on. */
import { createClient } from '@cms/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateIdpKeys } from '../../server/test/sign-in/saml-test-idp.js';
import { type SdkHarness, startSdkServer } from './sdk-fixtures.js';

const ENTRY_POINT = 'https://idp.example.test/sso';

let harness: SdkHarness;
beforeAll(async () => {
  const idp = await generateIdpKeys('idp');
  harness = await startSdkServer({
    CMS_PUBLIC_URL: 'https://cms.example.test',
    CMS_SAML_PROVIDERS: JSON.stringify([
      {
        slug: 'corp-saml',
        label: 'Corp SAML',
        entryPoint: ENTRY_POINT,
        idpIssuer: 'https://idp.example.test/saml',
        idpCert: idp.cert,
      },
    ]),
  });
});
afterAll(() => harness.server.close());

/** A session client whose cookies live in a jar, as a browser's would. */
function browserClient(target: { project?: string; environment?: string } = {}) {
  const jar = new Map<string, string>();
  const browserFetch: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(input, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) jar.set(name.trim(), value.join('='));
    }
    return response;
  };
  return createClient({
    baseUrl: harness.server.url,
    session: { csrfToken: () => jar.get('cms_csrf') },
    fetch: browserFetch,
    retries: 0,
    ...target,
  });
}

describe('studio.bootstrap', () => {
  it('answers the signed-in user, the projects and the environments of the project asked for', async () => {
    await harness
      .client()
      .users.create({ email: 'boot@example.com', role: 'admin', password: 'correct horse battery staple' });
    const studio = browserClient();
    await studio.auth.login({ email: 'boot@example.com', password: 'correct horse battery staple' });
    const boot = await studio.withTarget({ project: 'default' }).studio.bootstrap();
    expect(boot.me).toMatchObject({ principalType: 'user', email: 'boot@example.com' });
    expect(boot.projects.map((project) => project.slug)).toContain('default');
    expect(boot.environments.map((environment) => environment.name)).toContain('production');
    expect(Array.isArray(boot.modules)).toBe(true);
  });

  it('is refused without a session', async () => {
    await expect(browserClient().studio.bootstrap()).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });
});

describe('auth.sso.start', () => {
  it("answers the provider's redirect URL for a configured provider", async () => {
    const providers = await browserClient().auth.providers();
    expect(providers).toContainEqual({ slug: 'corp-saml', kind: 'saml', label: 'Corp SAML' });
    const { redirectUrl } = await browserClient().auth.sso.start('corp-saml');
    expect(redirectUrl.startsWith(`${ENTRY_POINT}?`)).toBe(true);
    expect(new URL(redirectUrl).searchParams.get('SAMLRequest')).toBeTruthy();
  });

  it('answers NOT_FOUND for a provider that is not configured', async () => {
    await expect(browserClient().auth.sso.start('nobody')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });
});
