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
import type { SamlSpKeys } from './saml-sp-keys.js';
import { hashToken } from './secret-tokens.js';
import type { IssuedSession, SignInOrigin } from './sessions.service.js';
import { SsoFailure, type SsoSignIn } from './sso-sign-in.js';

/** Clocks of the IdP and this server may differ by this much on NotBefore / NotOnOrAfter. */
export const SAML_CLOCK_SKEW_MS = 60_000;
/** node-saml (and its XML signature stack, about 14 MiB) loads at the first SAML request, not at start. */
const loadNodeSaml = () => import('@node-saml/node-saml');

const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
/** Attribute names IdPs use for the email (Entra ID, ADFS, Okta, Keycloak, LDAP-style). */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailAddress',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];

// xml2js shape of the verified assertion, as far as it is read here.
type XmlNode = { $?: Record<string, string>; _?: string } & Record<string, unknown>;

function first(node: unknown, name: string): XmlNode | undefined {
  const list = (node as Record<string, unknown> | undefined)?.[name];
  return Array.isArray(list) ? (list[0] as XmlNode) : undefined;
}

function all(node: unknown, name: string): XmlNode[] {
  const list = (node as Record<string, unknown> | undefined)?.[name];
  return Array.isArray(list) ? (list as XmlNode[]) : [];
}

/** The email of a verified profile: the NameID in email format, or a usual email attribute. */
function emailOf(profile: Profile): string | null {
  if (profile.nameIDFormat === EMAIL_NAME_ID && profile.nameID) return profile.nameID;
  for (const name of EMAIL_ATTRIBUTES) {
    const value = profile[name];
    if (typeof value === 'string' && value.includes('@')) return value;
    if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  }
  return null;
}

/**
 * SAML 2.0 sign-in with @node-saml/node-saml: signed AuthnRequests by HTTP-Redirect, assertions
 * answered by HTTP-POST at the ACS. node-saml checks the signature (of the assertion itself, with
 * the provider's certificate only: XML signature wrapping is refused), audience, InResponseTo and
 * the validity window; this service adds issuer, recipient and replay (decisions.md §5).
 */
export function createSamlService(deps: {
  db: Db;
  clock: Clock;
  publicUrl: string;
  providers: readonly SamlProviderSettings[];
  spKeys: () => Promise<SamlSpKeys | null>;
  signIn: SsoSignIn;
}) {
  const entityId = `${deps.publicUrl}/api/v1/auth/saml/metadata`;
  const acsUrl = `${deps.publicUrl}/api/v1/auth/saml/acs`;
  const instances = new Map<string, Promise<SAML>>();

  /** AuthnRequest ids live in `sso_requests` (hashed), so any process can check InResponseTo. */
  const requestStore = (slug: string): CacheProvider => ({
    async saveAsync(key, value) {
      const now = deps.clock();
      await deleteSsoRequestsExpiredBefore(deps.db, now);
      await insertSsoRequest(deps.db, {
        stateHash: hashToken(key),
        provider: slug,
        kind: 'saml',
        codeVerifier: null,
        nonce: null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + SSO_REQUEST_TTL_MS),
      });
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
  });

  const keys = async (): Promise<SamlSpKeys> => {
    const pair = await deps.spKeys();
    if (!pair) throw new CmsError('NOT_FOUND', 'SAML is not set up: set CMS_SAML_SP_KEY and CMS_SAML_SP_CERT.');
    return pair;
  };

  const samlFor = (provider: SamlProviderSettings): Promise<SAML> => {
    let instance = instances.get(provider.slug);
    if (!instance) {
      instance = Promise.all([keys(), loadNodeSaml()]).then(
        ([pair, { SAML, ValidateInResponseTo }]) =>
          new SAML({
            entryPoint: provider.entryPoint,
            idpCert: provider.idpCert,
            idpIssuer: provider.idpIssuer,
            issuer: entityId,
            audience: entityId,
            callbackUrl: acsUrl,
            privateKey: pair.key,
            publicCert: pair.cert,
            signatureAlgorithm: 'sha256',
            digestAlgorithm: 'sha256',
            wantAssertionsSigned: true,
            wantAuthnResponseSigned: false,
            acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
            validateInResponseTo: ValidateInResponseTo.always,
            requestIdExpirationPeriodMs: SSO_REQUEST_TTL_MS,
            cacheProvider: requestStore(provider.slug),
            identifierFormat: EMAIL_NAME_ID,
            // Ask for no particular way of signing in: the IdP's policy decides (MFA, passkeys, ...).
            disableRequestedAuthnContext: true,
          }),
      );
      instances.set(provider.slug, instance);
      instance.catch(() => instances.delete(provider.slug));
    }
    return instance;
  };

  /** Which provider an answer claims to come from (unverified: only picks the certificate to verify with). */
  const providerOf = (xml: string): SamlProviderSettings | null => {
    if (deps.providers.length === 1) return deps.providers[0] ?? null;
    const issuer = /<(?:[\w-]+:)?Issuer\b[^>]*>\s*([^<]+?)\s*</.exec(xml)?.[1];
    return deps.providers.find((provider) => provider.idpIssuer === issuer) ?? null;
  };

  const invalid = (detail: string) => new SsoFailure('UNAUTHORIZED', 'response_invalid', detail);

  /** Checks what node-saml leaves to us, on the verified assertion: issuer, recipient, then replay. */
  const assertVerified = async (provider: SamlProviderSettings, profile: Profile): Promise<void> => {
    const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
    if (!assertion) throw invalid('no signed assertion');
    if (first(assertion, 'Issuer')?._?.trim() !== provider.idpIssuer)
      throw invalid('the assertion names another issuer');
    const confirmations = all(first(assertion, 'Subject'), 'SubjectConfirmation').filter(
      (confirmation) => confirmation.$?.Method === BEARER,
    );
    const data = confirmations.map((confirmation) => first(confirmation, 'SubjectConfirmationData')?.$ ?? {});
    if (!data.some((attributes) => attributes.Recipient === acsUrl)) {
      throw invalid(`the assertion is for another recipient (expected ${acsUrl})`);
    }
    const assertionId = assertion.$?.ID;
    if (!assertionId) throw invalid('the assertion has no ID');
    const limits = [
      first(assertion, 'Conditions')?.$?.NotOnOrAfter,
      ...data.map((attributes) => attributes.NotOnOrAfter),
    ]
      .map((value) => (value ? Date.parse(value) : Number.NaN))
      .filter((value) => Number.isFinite(value));
    const now = deps.clock().getTime();
    // Kept until no clock could accept it any more; without a limit, as long as a request lives.
    const expiresAt = new Date((limits.length ? Math.max(...limits) : now + SSO_REQUEST_TTL_MS) + SAML_CLOCK_SKEW_MS);
    await deleteSamlAssertionsExpiredBefore(deps.db, new Date(now));
    if (!(await rememberSamlAssertion(deps.db, { provider: provider.slug, assertionId, expiresAt }))) {
      throw new SsoFailure('UNAUTHORIZED', 'replayed', 'This assertion was already used.');
    }
  };

  return {
    entityId,
    acsUrl,

    /**
     * Starts a sign-in: the IdP's address with a signed AuthnRequest (HTTP-Redirect binding). `binding`,
     * when the browser holds it in its binding cookie, goes as the RelayState the IdP posts back.
     */
    async start(provider: SamlProviderSettings, binding: string | null): Promise<{ redirectUrl: string }> {
      const saml = await samlFor(provider);
      return { redirectUrl: await saml.getAuthorizeUrlAsync(binding ?? '', undefined, {}) };
    },

    /** The service provider's metadata (interface.md "Authentication endpoints"). */
    async metadata(): Promise<string> {
      const pair = await keys();
      const { generateServiceProviderMetadata } = await loadNodeSaml();
      return generateServiceProviderMetadata({
        issuer: entityId,
        callbackUrl: acsUrl,
        publicCerts: pair.cert,
        privateKey: pair.key,
        wantAssertionsSigned: true,
        identifierFormat: EMAIL_NAME_ID,
        signatureAlgorithm: 'sha256',
        digestAlgorithm: 'sha256',
      });
    },

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
      if (typeof response !== 'string' || response === '') throw invalid('no SAMLResponse in the form');
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
      const provider = providerOf(xml);
      if (!provider) throw invalid('the answer comes from no configured identity provider');
      let profile: Profile | null;
      try {
        ({ profile } = await (await samlFor(provider)).validatePostResponseAsync({ SAMLResponse: response }));
      } catch (error: unknown) {
        const assertionId = /<(?:[\w-]+:)?Assertion\b[^>]*\sID="([^"]+)"/.exec(xml)?.[1];
        if (assertionId && (await isSamlAssertionKnown(deps.db, provider.slug, assertionId))) {
          throw new SsoFailure('UNAUTHORIZED', 'replayed', 'This assertion was already used.');
        }
        throw invalid(error instanceof Error ? error.message : String(error));
      }
      if (!profile) throw invalid('the answer holds no assertion');
      await assertVerified(provider, profile);
      const email = emailOf(profile);
      if (!email) {
        throw new SsoFailure(
          'FORBIDDEN',
          'email_missing',
          'The assertion carries no email: send it as NameID or attribute.',
        );
      }
      return deps.signIn.signIn(provider, email, origin);
    },
  };
}

/** The SAML service's type, for the SAML actions. */
export type SamlService = ReturnType<typeof createSamlService>;
