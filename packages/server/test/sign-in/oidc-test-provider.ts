import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** Who the test identity provider signs in next. */
export interface TestAccount {
  sub: string;
  email: string;
  email_verified: boolean;
}

/** A real OpenID Connect provider (oidc-provider) on a loopback port, signing in whoever the test says. */
export interface OidcTestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account the next authorization signs in (no login form: the interaction finishes at once). */
  signInNext(account: TestAccount): void;
  close(): Promise<void>;
}

/** Id tokens live one minute here, so a test can move the server's clock past them. */
export const TEST_ID_TOKEN_TTL_SECONDS = 60;

/** Starts the provider; `redirectUris` are the callbacks of the CMS servers under test. */
export async function startOidcTestProvider(redirectUris: string[]): Promise<OidcTestProvider> {
  const accounts = new Map<string, TestAccount>();
  let next: TestAccount | null = null;
  const clientId = 'cms-test';
  const clientSecret = 'cms-test-secret-0123456789';
  let provider: Provider | null = null;
  const server: Server = createServer((req, res) => {
    const current = provider as Provider;
    const match = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (!match) {
      current.callback()(req, res);
      return;
    }
    // Stands in for the login page: the interaction finishes with the account the test chose.
    (async () => {
      await current.interactionDetails(req, res);
      if (!next) throw new Error('no account chosen for the next sign-in');
      accounts.set(next.sub, next);
      await current.interactionFinished(
        req,
        res,
        { login: { accountId: next.sub } },
        { mergeWithLastSubmission: false },
      );
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    conformIdTokenClaims: false,
    cookies: { keys: ['oidc-test-provider-cookie-key'] },
    pkce: { required: () => true },
    ttl: { IdToken: TEST_ID_TOKEN_TTL_SECONDS },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ ...account }) };
    },
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client?.clientId as string,
        accountId: ctx.oidc.session?.accountId as string,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  return {
    issuer,
    clientId,
    clientSecret,
    signInNext(account) {
      next = account;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Follows redirects by hand with a cookie jar, as a browser would, until `stopAt` matches. */
export async function followBrowser(start: string, stopAt: (url: string) => boolean): Promise<string> {
  const jar = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 10; hop += 1) {
    if (stopAt(url)) return url;
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`no redirect from ${url}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer().catch(() => undefined);
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects');
}
