import { CmsError } from '@cms/core';
import * as client from 'openid-client';
import type { Clock } from '../../clock.js';
import type { OidcProviderSettings } from '../../sso-settings.js';
import { isLoopbackHost } from '../../sso-settings.js';
import type { Db } from '../../storage/db.js';
import {
  deleteSsoRequestsExpiredBefore,
  insertSsoRequest,
  takeSsoRequest,
} from '../../storage/repositories/sso-requests.repository.js';
import { hashesEqual } from './api-key-secret.js';
import { hashToken } from './secret-tokens.js';
import type { IssuedSession, SignInOrigin } from './sessions.service.js';
import { SsoFailure, type SsoSignIn } from './sso-sign-in.js';

/** A sign-in must come back from the identity provider within 10 minutes of its start. */
export const SSO_REQUEST_TTL_MS = 10 * 60_000;
const SCOPE = 'openid email profile';

/** Is this error a network failure or a timeout talking to the identity provider (not a verdict)? */
function isUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 6; depth += 1) {
    if (current.name === 'TimeoutError' || current.name === 'AbortError') return true;
    if (current instanceof TypeError && /fetch failed/i.test(current.message)) return true;
    if ('code' in current && ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT'].includes(String(current.code))) {
      return true;
    }
    current = current.cause;
  }
  return false;
}

/** What the OIDC sign-in needs: the database, the clock, the public address and the sign-in step. */
export interface OidcServiceDeps {
  db: Db;
  clock: Clock;
  publicUrl: string;
  timeoutSeconds: number;
  signIn: SsoSignIn;
}

/** What a successful code exchange yields: the configuration used, the id token claims, the access token. */
interface CodeExchange {
  config: client.Configuration;
  claims: client.IDToken | undefined;
  accessToken: string;
}

/**
 * OpenID Connect sign-in (decisions.md §5) with openid-client: authorization code + PKCE (S256) +
 * state + nonce, kept server-side in `sso_requests` so any process can finish a sign-in another one
 * started. The callback verifies issuer, audience, signature, nonce and expiry of the id token, and
 * requires a verified email. The SSO handlers set cookies and redirect, so the methods keep their
 * own signatures rather than a route's.
 */
export class OidcService {
  /** Discovery answers, per provider; a failed discovery is not kept, so the next sign-in retries it. */
  private readonly discovered = new Map<string, Promise<client.Configuration>>();
  private readonly jwks = new Map<string, client.ExportedJWKSCache>();

  constructor(private readonly deps: OidcServiceDeps) {}

  /** Starts a sign-in: the address of the provider's authorization endpoint. */
  async start(provider: OidcProviderSettings): Promise<{ redirectUrl: string; state: string }> {
    const { deps } = this;
    let config: client.Configuration;
    try {
      config = await this.configure(provider);
    } catch (error: unknown) {
      const unavailable = new CmsError(
        'SERVICE_UNAVAILABLE',
        `The identity provider ${provider.label} did not answer (${isUnreachable(error) ? 'unreachable or too slow' : 'invalid discovery document'}): try again later.`,
      );
      // The warn line of the 503 shows the network's or the parser's own words.
      unavailable.cause = error;
      throw unavailable;
    }
    const now = deps.clock();
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    await deleteSsoRequestsExpiredBefore(deps.db, now);
    const request = {
      stateHash: hashToken(state),
      provider: provider.slug,
      kind: 'oidc' as const,
      codeVerifier,
      nonce,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SSO_REQUEST_TTL_MS),
    };
    // In a transaction, so the audit entry of the start commits with the request (docs/audit.md).
    await deps.db.transaction((tx) => insertSsoRequest(tx, request));
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.callbackUrl(provider),
      scope: SCOPE,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { redirectUrl: url.href, state };
  }

  /**
   * Finishes a sign-in from the provider's answer (the callback's query string) in the browser that
   * started it (`binding`: the state its cookie holds); throws SsoFailure.
   */
  async finish(
    provider: OidcProviderSettings,
    query: URLSearchParams,
    origin: SignInOrigin & { binding: string | null },
  ): Promise<IssuedSession> {
    const { deps } = this;
    const state = query.get('state');
    if (!state) throw new SsoFailure('UNAUTHORIZED', 'state_missing', 'The answer carries no state.');
    if (origin.binding === null || !hashesEqual(hashToken(origin.binding), hashToken(state))) {
      throw new SsoFailure(
        'UNAUTHORIZED',
        'browser_mismatch',
        'This sign-in was started in another browser: start again.',
      );
    }
    const request = await takeSsoRequest(deps.db, hashToken(state), provider.slug);
    if (request?.kind !== 'oidc' || !request.codeVerifier || !request.nonce) {
      throw new SsoFailure('UNAUTHORIZED', 'state_invalid', 'Unknown or already used sign-in state: start again.');
    }
    if (request.expiresAt.getTime() <= deps.clock().getTime()) {
      throw new SsoFailure('UNAUTHORIZED', 'expired', 'The sign-in took too long: start again.');
    }
    const idpError = query.get('error');
    if (idpError) {
      throw new SsoFailure('UNAUTHORIZED', 'idp_error', `The identity provider refused the sign-in (${idpError}).`);
    }
    const { config, claims, accessToken } = await this.exchangeCode(provider, query, {
      state,
      codeVerifier: request.codeVerifier,
      nonce: request.nonce,
    });
    if (!claims) throw new SsoFailure('UNAUTHORIZED', 'id_token_invalid', 'No id token in the answer.');
    const profile = await this.profileOf(provider, config, accessToken, claims);
    if (typeof profile.email !== 'string') {
      throw new SsoFailure('FORBIDDEN', 'email_missing', 'The identity provider sent no email: add the email scope.');
    }
    if (!isVerified(profile)) {
      throw new SsoFailure('FORBIDDEN', 'email_not_verified', 'Your email is not verified at the identity provider.');
    }
    return deps.signIn.signIn(provider, profile.email, origin);
  }

  /** The address the provider sends the browser back to. */
  callbackUrl(provider: OidcProviderSettings): string {
    return `${this.deps.publicUrl}/api/v1/auth/sso/${encodeURIComponent(provider.slug)}/callback`;
  }

  /** Trades the code for tokens, verifying the id token; throws SsoFailure. */
  private async exchangeCode(
    provider: OidcProviderSettings,
    query: URLSearchParams,
    expected: { state: string; codeVerifier: string; nonce: string },
  ): Promise<CodeExchange> {
    try {
      const config = await this.configure(provider);
      const currentUrl = new URL(`${this.callbackUrl(provider)}?${query.toString()}`);
      const tokens = await client.authorizationCodeGrant(
        config,
        currentUrl,
        {
          pkceCodeVerifier: expected.codeVerifier,
          expectedState: expected.state,
          expectedNonce: expected.nonce,
          idTokenExpected: true,
        },
        { redirect_uri: this.callbackUrl(provider) },
      );
      const cache = client.getJwksCache(config);
      if (cache) this.jwks.set(provider.slug, cache);
      return { config, claims: tokens.claims(), accessToken: tokens.access_token };
    } catch (error: unknown) {
      if (isUnreachable(error)) {
        throw new SsoFailure('SERVICE_UNAVAILABLE', 'idp_unreachable', `${provider.label} did not answer in time.`);
      }
      if (error instanceof client.ResponseBodyError) {
        throw new SsoFailure('UNAUTHORIZED', 'code_rejected', `${provider.label} refused the code (${error.error}).`);
      }
      if (error instanceof client.AuthorizationResponseError) {
        throw new SsoFailure('UNAUTHORIZED', 'idp_error', `${provider.label} refused the sign-in (${error.error}).`);
      }
      throw new SsoFailure('UNAUTHORIZED', 'id_token_invalid', `The id token failed verification: ${String(error)}`);
    }
  }

  /** The claims, completed from userinfo when they lack a verified email. */
  private async profileOf(
    provider: OidcProviderSettings,
    config: client.Configuration,
    accessToken: string,
    claims: client.IDToken,
  ): Promise<Record<string, unknown>> {
    if (typeof claims.email === 'string' && isVerified(claims)) return claims;
    // Some providers put the email in the userinfo answer only.
    try {
      return { ...(await client.fetchUserInfo(config, accessToken, claims.sub)), ...claims };
    } catch (error: unknown) {
      if (isUnreachable(error)) {
        throw new SsoFailure('SERVICE_UNAVAILABLE', 'idp_unreachable', `${provider.label} did not answer in time.`);
      }
      return claims;
    }
  }

  private discover(provider: OidcProviderSettings): Promise<client.Configuration> {
    let pending = this.discovered.get(provider.slug);
    if (!pending) {
      pending = client.discovery(new URL(provider.issuer), provider.clientId, provider.clientSecret, undefined, {
        timeout: this.deps.timeoutSeconds,
        ...(insecureAllowed(provider) ? { execute: [client.allowInsecureRequests] } : {}),
      });
      this.discovered.set(provider.slug, pending);
      pending.catch(() => this.discovered.delete(provider.slug));
    }
    return pending;
  }

  /** A configuration for one exchange: the discovered metadata, our clock, the timeout, the key cache. */
  private async configure(provider: OidcProviderSettings): Promise<client.Configuration> {
    const base = await this.discover(provider);
    const skew = Math.round((this.deps.clock().getTime() - Date.now()) / 1000);
    const config = new client.Configuration(base.serverMetadata(), provider.clientId, {
      client_secret: provider.clientSecret,
      [client.clockSkew]: skew,
    });
    config.timeout = this.deps.timeoutSeconds;
    if (insecureAllowed(provider)) client.allowInsecureRequests(config);
    const cache = this.jwks.get(provider.slug);
    if (cache) client.setJwksCache(config, cache);
    return config;
  }
}

/** Plain http is allowed only to an issuer on this machine (tests, local providers). */
function insecureAllowed(provider: OidcProviderSettings): boolean {
  return new URL(provider.issuer).protocol === 'http:' && isLoopbackHost(new URL(provider.issuer).hostname);
}

/**
 * A verified email: `email_verified: true` (OIDC Core §5.1), or Entra ID's `xms_edov: true` (the
 * email's domain is verified by the tenant; Entra sends no `email_verified`).
 */
function isVerified(claims: Record<string, unknown>): boolean {
  return claims.email_verified === true || claims.xms_edov === true;
}
