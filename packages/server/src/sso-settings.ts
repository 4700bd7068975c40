import { isRole, type Role } from '@cms/core';

/** What OIDC and SAML providers share: who they are and what a user they sign in gets. */
interface SsoProviderBase {
  slug: string;
  label: string;
  /** Role of a user created by signing in (decisions.md §1: `viewer` unless set). */
  defaultRole: Role;
  /** Email domains allowed to sign in through this provider; null lets every verified email in. */
  allowedEmailDomains: string[] | null;
  /** Project in which a user created by signing in gets a project-wide grant of `defaultRole`. */
  project: string | null;
  /**
   * Whether a user who already exists (made by invite, by an admin, or by another provider) may sign
   * in through this provider because the emails match. Off unless set: whoever controls the email at
   * this provider would otherwise take over that account (docs/access-control.md).
   */
  matchExistingUsersByEmail: boolean;
}

/** One OpenID Connect provider of `CMS_OIDC_PROVIDERS`. */
export interface OidcProviderSettings extends SsoProviderBase {
  kind: 'oidc';
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** One SAML 2.0 identity provider of `CMS_SAML_PROVIDERS`. */
export interface SamlProviderSettings extends SsoProviderBase {
  kind: 'saml';
  /** The IdP's single sign-on address (HTTP-Redirect binding). */
  entryPoint: string;
  /** The IdP's entity id: the Issuer its responses must carry. */
  idpIssuer: string;
  /** The IdP's signing certificate(s), PEM. */
  idpCert: string;
}

/** Every single sign-on setting, validated at start. */
export interface SsoSettings {
  oidc: OidcProviderSettings[];
  saml: SamlProviderSettings[];
  /** Seconds an identity provider may take to answer (discovery, token, keys) before sign-in fails. */
  timeoutSeconds: number;
  /**
   * The service provider's signing key and certificate (PEM), from `CMS_SAML_SP_KEY` / `CMS_SAML_SP_CERT`;
   * null when unset (the embedded default then generates a pair into the data dir at first use).
   */
  samlSp: { key: string; cert: string } | null;
}

/** Thrown with a message naming the setting; config.ts turns it into its ConfigError. */
export class SsoSettingError extends Error {}

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const COMMON_KEYS = ['slug', 'label', 'defaultRole', 'allowedEmailDomains', 'project', 'matchExistingUsersByEmail'];
const OIDC_KEYS = [...COMMON_KEYS, 'issuer', 'clientId', 'clientSecret'];
const SAML_KEYS = [...COMMON_KEYS, 'entryPoint', 'idpIssuer', 'idpCert'];

type Env = Record<string, string | undefined>;

/** Is this a loopback host, where plain http is tolerated (development IdPs, tests)? */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
}

function readArray(env: Env, name: string): Record<string, unknown>[] {
  const raw = env[name]?.trim();
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new SsoSettingError(`${name} must be a JSON array of providers; it is not valid JSON.`);
  }
  if (!Array.isArray(parsed)) throw new SsoSettingError(`${name} must be a JSON array of providers.`);
  return parsed.map((entry, index) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new SsoSettingError(`${name}[${index}] must be an object.`);
    }
    return entry as Record<string, unknown>;
  });
}

function fieldReader(name: string, entry: Record<string, unknown>, allowed: readonly string[]) {
  for (const key of Object.keys(entry)) {
    if (!allowed.includes(key)) {
      throw new SsoSettingError(`${name}.${key} is not a setting of this provider (known: ${allowed.join(', ')}).`);
    }
  }
  const text = (key: string, required: boolean): string | null => {
    const value = entry[key];
    if (value === undefined || value === null) {
      if (required) throw new SsoSettingError(`${name}.${key} is required.`);
      return null;
    }
    if (typeof value !== 'string' || value.trim() === '') {
      throw new SsoSettingError(`${name}.${key} must be a non-empty string.`);
    }
    return value.trim();
  };
  const url = (key: string): string => {
    const value = text(key, true) as string;
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new SsoSettingError(`${name}.${key} must be an absolute URL, got "${value}".`);
    }
    if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))) {
      throw new SsoSettingError(`${name}.${key} must be an https URL (plain http only on a loopback host).`);
    }
    return value;
  };
  return { text, url };
}

function readCommon(name: string, entry: Record<string, unknown>, text: (k: string, r: boolean) => string | null) {
  const slug = text('slug', true) as string;
  if (!SLUG.test(slug)) throw new SsoSettingError(`${name}.slug must match ${SLUG.source}, got "${slug}".`);
  const role = text('defaultRole', false) ?? 'viewer';
  if (!isRole(role)) throw new SsoSettingError(`${name}.defaultRole must be admin, editor, author or viewer.`);
  const project = text('project', false);
  if (project !== null && !SLUG.test(project)) throw new SsoSettingError(`${name}.project must be a project slug.`);
  const domains = entry.allowedEmailDomains;
  let allowedEmailDomains: string[] | null = null;
  if (domains !== undefined && domains !== null) {
    if (!Array.isArray(domains) || domains.length === 0) {
      throw new SsoSettingError(`${name}.allowedEmailDomains must be a non-empty array of domains.`);
    }
    allowedEmailDomains = domains.map((domain) => {
      const value = typeof domain === 'string' ? domain.trim().toLowerCase() : '';
      if (!DOMAIN.test(value)) throw new SsoSettingError(`${name}.allowedEmailDomains has an invalid domain.`);
      return value;
    });
  }
  const match = entry.matchExistingUsersByEmail ?? false;
  if (typeof match !== 'boolean') throw new SsoSettingError(`${name}.matchExistingUsersByEmail must be true or false.`);
  return {
    slug,
    label: text('label', false) ?? slug,
    defaultRole: role,
    allowedEmailDomains,
    project,
    matchExistingUsersByEmail: match,
  };
}

function readPem(name: string, value: string, kind: 'CERTIFICATE'): string {
  if (!value.includes(`-----BEGIN ${kind}-----`)) {
    throw new SsoSettingError(`${name} must be a PEM ${kind.toLowerCase()} (-----BEGIN ${kind}-----).`);
  }
  return value;
}

/** Reads `CMS_OIDC_PROVIDERS`, `CMS_SAML_PROVIDERS` and `CMS_SSO_TIMEOUT_SECONDS` (decisions.md §1). */
export function readSsoSettings(env: Env, timeoutSeconds: number, embedded: boolean): SsoSettings {
  const oidc = readArray(env, 'CMS_OIDC_PROVIDERS').map((entry, index): OidcProviderSettings => {
    const name = `CMS_OIDC_PROVIDERS[${index}]`;
    const { text, url } = fieldReader(name, entry, OIDC_KEYS);
    return {
      kind: 'oidc',
      ...readCommon(name, entry, text),
      issuer: url('issuer'),
      clientId: text('clientId', true) as string,
      clientSecret: text('clientSecret', true) as string,
    };
  });
  const saml = readArray(env, 'CMS_SAML_PROVIDERS').map((entry, index): SamlProviderSettings => {
    const name = `CMS_SAML_PROVIDERS[${index}]`;
    const { text, url } = fieldReader(name, entry, SAML_KEYS);
    return {
      kind: 'saml',
      ...readCommon(name, entry, text),
      entryPoint: url('entryPoint'),
      idpIssuer: text('idpIssuer', true) as string,
      idpCert: readPem(`${name}.idpCert`, text('idpCert', true) as string, 'CERTIFICATE'),
    };
  });
  const seen = new Set<string>();
  for (const provider of [...oidc, ...saml]) {
    if (seen.has(provider.slug)) {
      throw new SsoSettingError(
        `Provider slug "${provider.slug}" is used twice in CMS_OIDC_PROVIDERS / CMS_SAML_PROVIDERS: slugs must be unique.`,
      );
    }
    seen.add(provider.slug);
  }
  return { oidc, saml, timeoutSeconds, samlSp: readSamlSp(env, saml.length > 0 && !embedded) };
}

function readSamlSp(env: Env, required: boolean): { key: string; cert: string } | null {
  const key = env.CMS_SAML_SP_KEY?.trim() || null;
  const cert = env.CMS_SAML_SP_CERT?.trim() || null;
  if (key === null && cert === null) {
    if (required) {
      throw new SsoSettingError(
        'CMS_SAML_SP_KEY and CMS_SAML_SP_CERT are required with DATABASE_URL when CMS_SAML_PROVIDERS is set: every process must sign with the same key.',
      );
    }
    return null;
  }
  if (key === null || cert === null)
    throw new SsoSettingError('Set both CMS_SAML_SP_KEY and CMS_SAML_SP_CERT, or neither.');
  if (!/-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(key)) {
    throw new SsoSettingError('CMS_SAML_SP_KEY must be a PEM private key (-----BEGIN PRIVATE KEY-----).');
  }
  return { key, cert: readPem('CMS_SAML_SP_CERT', cert, 'CERTIFICATE') };
}
