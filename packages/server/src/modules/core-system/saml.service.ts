import { CmsError } from '@cms/core';
import type { CacheProvider, Profile, SAML } from '@node-saml/node-saml';
import type { Clock } from '../../clock.js';
import type { SamlProviderSettings } from '../../sso-settings.js';
import type { Db } from '../../storage/db.js';
import {
  deleteSamlAssertionsExpiredBefore,
  deleteSsoRequestsExpiredBefore,
  findSsoRequest,
  insertSsoRequest,
  isSamlAssertionKnown,
  rememberSamlAssertion,
  takeSsoRequest,
} from '../../storage/repositories/sso-requests.repository.js';
import { hashesEqual } from './api-key-secret.js';
import { SSO_REQUEST_TTL_MS } from './oidc.service.js';
import {
  checkVerifiedAssertion,
  claimedAssertionIdOf,
  claimedIssuerOf,
  EMAIL_NAME_ID,
  emailOf,
  invalidSamlResponse,
} from './saml-assertion.js';
import type { SamlSpKeys } from './saml-sp-keys.js';
import { hashToken } from './secret-tokens.js';
import type { IssuedSession, SignInOrigin } from './sessions.service.js';
import { SsoFailure, type SsoSignIn } from './sso-sign-in.js';

/** Clocks of the IdP and this server may differ by this much on NotBefore / NotOnOrAfter. */
export const SAML_CLOCK_SKEW_MS = 60_000;
/** node-saml (and its XML signature stack, about 14 MiB) loads at the first SAML request, not at start. */
const loadNodeSaml = () => import('@node-saml/node-saml');

/** What SAML sign-in needs: storage, the time, the public address, the providers, the SP pair, sign-in. */
export interface SamlDeps {
  db: Db;
  clock: Clock;
  publicUrl: string;
  providers: readonly SamlProviderSettings[];
  spKeys: () => Promise<SamlSpKeys | null>;
  signIn: SsoSignIn;
}

/** AuthnRequest ids live in `sso_requests` (hashed), so any process can check InResponseTo. */
function ssoRequestStore(deps: Pick<SamlDeps, 'db' | 'clock'>, slug: string): CacheProvider {
  return {
    async saveAsync(key, value) {
      const now = deps.clock();
      await deleteSsoRequestsExpiredBefore(deps.db, now);
      const request = {
        stateHash: hashToken(key),
        provider: slug,
        kind: 'saml' as const,
        codeVerifier: null,
        nonce: null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + SSO_REQUEST_TTL_MS),
      };
      // In a transaction, so the audit entry of the start commits with the request (docs/audit.md).
      await deps.db.transaction((tx) => insertSsoRequest(tx, request));
      return { value, createdAt: now.getTime() };
    },
    async getAsync(key) {
      const row = await findSsoRequest(deps.db, hashToken(key), slug);
      if (row?.kind !== 'saml' || row.expiresAt.getTime() <= deps.clock().getTime()) return null;
      return row.createdAt.toISOString();
    },
    async removeAsync(key) {
      if (!key) return null;
      const row = await takeSsoRequest(deps.db, hashToken(key), slug);
      return row ? row.createdAt.toISOString() : null;
    },
  };
}

/**
 * SAML 2.0 sign-in with @node-saml/node-saml: signed AuthnRequests by HTTP-Redirect, assertions
 * answered by HTTP-POST at the ACS. node-saml checks the signature (of the assertion itself, with
 * the provider's certificate only: XML signature wrapping is refused), audience, InResponseTo and
 * the validity window; this service adds issuer, recipient and replay (decisions.md §5).
 */
export class SamlService {
  readonly entityId: string;
  readonly acsUrl: string;
  /** One node-saml instance per provider; a failed setup is not kept, so the next request retries it. */
  private readonly instances = new Map<string, Promise<SAML>>();

  constructor(private readonly deps: SamlDeps) {
    this.entityId = `${deps.publicUrl}/api/v1/auth/saml/metadata`;
    this.acsUrl = `${deps.publicUrl}/api/v1/auth/saml/acs`;
  }

  /**
   * Starts a sign-in: the IdP's address with a signed AuthnRequest (HTTP-Redirect binding). `binding`,
   * when the browser holds it in its binding cookie, goes as the RelayState the IdP posts back.
   */
  async start(provider: SamlProviderSettings, binding: string | null): Promise<{ redirectUrl: string }> {
    const saml = await this.samlFor(provider);
    return { redirectUrl: await saml.getAuthorizeUrlAsync(binding ?? '', undefined, {}) };
  }

  /** The service provider's metadata (interface.md "Authentication endpoints"). */
  async metadata(): Promise<string> {
    const pair = await this.keys();
    const { generateServiceProviderMetadata } = await loadNodeSaml();
    return generateServiceProviderMetadata({
      issuer: this.entityId,
      callbackUrl: this.acsUrl,
      publicCerts: pair.cert,
      privateKey: pair.key,
      wantAssertionsSigned: true,
      identifierFormat: EMAIL_NAME_ID,
      signatureAlgorithm: 'sha256',
      digestAlgorithm: 'sha256',
    });
  }

  /**
   * Verifies an answer posted to the ACS and signs its user in; throws SsoFailure. With
   * `bindingRequired` (an https public address) the answer's RelayState must be the `binding` the
   * browser's cookie holds: nobody can make a victim's browser finish a sign-in they started.
   */
  async finish(
    form: Record<string, unknown>,
    origin: SignInOrigin & { binding: string | null; bindingRequired: boolean },
  ): Promise<IssuedSession> {
    const response = form.SAMLResponse;
    if (typeof response !== 'string' || response === '') throw invalidSamlResponse('no SAMLResponse in the form');
    if (origin.bindingRequired) {
      const relayState = typeof form.RelayState === 'string' ? form.RelayState : '';
      if (origin.binding === null || !hashesEqual(hashToken(origin.binding), hashToken(relayState))) {
        throw new SsoFailure(
          'UNAUTHORIZED',
          'browser_mismatch',
          'This sign-in was started in another browser: start again.',
        );
      }
    }
    const xml = Buffer.from(response, 'base64').toString('utf8');
    const provider = this.providerOf(xml);
    if (!provider) throw invalidSamlResponse('the answer comes from no configured identity provider');
    const profile = await this.verify(provider, response, xml);
    if (!profile) throw invalidSamlResponse('the answer holds no assertion');
    const { assertionId, notOnOrAfter } = checkVerifiedAssertion(profile, {
      issuer: provider.idpIssuer,
      recipient: this.acsUrl,
    });
    await this.rememberAssertion(provider, assertionId, notOnOrAfter);
    const email = emailOf(profile);
    if (!email) {
      throw new SsoFailure(
        'FORBIDDEN',
        'email_missing',
        'The assertion carries no email: send it as NameID or attribute.',
      );
    }
    return this.deps.signIn.signIn(provider, email, origin);
  }

  /** The SP signing pair; NOT_FOUND while SAML is not set up. */
  private async keys(): Promise<SamlSpKeys> {
    const pair = await this.deps.spKeys();
    if (!pair) throw new CmsError('NOT_FOUND', 'SAML is not set up: set CMS_SAML_SP_KEY and CMS_SAML_SP_CERT.');
    return pair;
  }

  /** The provider's node-saml instance, made at its first use. */
  private samlFor(provider: SamlProviderSettings): Promise<SAML> {
    let instance = this.instances.get(provider.slug);
    if (!instance) {
      instance = Promise.all([this.keys(), loadNodeSaml()]).then(
        ([pair, { SAML, ValidateInResponseTo }]) =>
          new SAML({
            entryPoint: provider.entryPoint,
            idpCert: provider.idpCert,
            idpIssuer: provider.idpIssuer,
            issuer: this.entityId,
            audience: this.entityId,
            callbackUrl: this.acsUrl,
            privateKey: pair.key,
            publicCert: pair.cert,
            signatureAlgorithm: 'sha256',
            digestAlgorithm: 'sha256',
            wantAssertionsSigned: true,
            wantAuthnResponseSigned: false,
            acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
            validateInResponseTo: ValidateInResponseTo.always,
            requestIdExpirationPeriodMs: SSO_REQUEST_TTL_MS,
            cacheProvider: ssoRequestStore(this.deps, provider.slug),
            identifierFormat: EMAIL_NAME_ID,
            // Ask for no particular way of signing in: the IdP's policy decides (MFA, passkeys, ...).
            disableRequestedAuthnContext: true,
          }),
      );
      this.instances.set(provider.slug, instance);
      instance.catch(() => this.instances.delete(provider.slug));
    }
    return instance;
  }

  /** Which provider an answer claims to come from (unverified: only picks the certificate to verify with). */
  private providerOf(xml: string): SamlProviderSettings | null {
    const { providers } = this.deps;
    if (providers.length === 1) return providers[0] ?? null;
    const issuer = claimedIssuerOf(xml);
    return providers.find((provider) => provider.idpIssuer === issuer) ?? null;
  }

  /** node-saml's verification of the answer; a refused answer whose assertion was already used is a replay. */
  private async verify(provider: SamlProviderSettings, response: string, xml: string): Promise<Profile | null> {
    try {
      const { profile } = await (await this.samlFor(provider)).validatePostResponseAsync({ SAMLResponse: response });
      return profile;
    } catch (error: unknown) {
      const assertionId = claimedAssertionIdOf(xml);
      if (assertionId && (await isSamlAssertionKnown(this.deps.db, provider.slug, assertionId))) {
        throw new SsoFailure('UNAUTHORIZED', 'replayed', 'This assertion was already used.');
      }
      throw invalidSamlResponse(error instanceof Error ? error.message : String(error));
    }
  }

  /** Records a verified assertion's ID, so it signs in once; a second use is `replayed`. */
  private async rememberAssertion(
    provider: SamlProviderSettings,
    assertionId: string,
    notOnOrAfter: readonly number[],
  ): Promise<void> {
    const { db, clock } = this.deps;
    const now = clock().getTime();
    // Kept until no clock could accept it any more; without a limit, as long as a request lives.
    const latest = notOnOrAfter.length ? Math.max(...notOnOrAfter) : now + SSO_REQUEST_TTL_MS;
    const expiresAt = new Date(latest + SAML_CLOCK_SKEW_MS);
    await deleteSamlAssertionsExpiredBefore(db, new Date(now));
    if (!(await rememberSamlAssertion(db, { provider: provider.slug, assertionId, expiresAt }))) {
      throw new SsoFailure('UNAUTHORIZED', 'replayed', 'This assertion was already used.');
    }
  }
}
