import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const BASE = {
  CMS_SECRET: 'x'.repeat(40),
  CMS_DATA_DIR: '/tmp/cms-sso-settings-test',
  DATABASE_URL: 'postgres://db/cms',
};
const OIDC = { slug: 'corp', issuer: 'https://idp.example.com/realms/corp', clientId: 'cms', clientSecret: 's3cret' };
const CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
const SAML = {
  slug: 'okta',
  entryPoint: 'https://okta.example.com/sso/saml',
  idpIssuer: 'http://www.okta.com/x',
  idpCert: CERT,
};

function load(env: Record<string, string>) {
  return loadConfig({ ...BASE, ...env });
}

function refusal(env: Record<string, string>): string {
  try {
    load(env);
  } catch (error: unknown) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('single sign-on settings', () => {
  it('reads OIDC providers with their defaults', () => {
    const config = load({ CMS_OIDC_PROVIDERS: JSON.stringify([OIDC]) });
    expect(config.sso.oidc).toEqual([
      {
        kind: 'oidc',
        ...OIDC,
        label: 'corp',
        defaultRole: 'viewer',
        allowedEmailDomains: null,
        project: null,
        matchExistingUsersByEmail: false,
      },
    ]);
    expect(config.sso.timeoutSeconds).toBe(10);
    expect(config.sso.samlSp).toBeNull();
  });

  it('stops the start with a message naming the setting and the field', () => {
    expect(refusal({ CMS_OIDC_PROVIDERS: '{not json' })).toMatch(/^CMS_OIDC_PROVIDERS must be a JSON array/);
    expect(refusal({ CMS_OIDC_PROVIDERS: JSON.stringify(OIDC) })).toMatch(/^CMS_OIDC_PROVIDERS must be a JSON array/);
    expect(refusal({ CMS_OIDC_PROVIDERS: JSON.stringify([{ ...OIDC, clientId: undefined }]) })).toBe(
      'CMS_OIDC_PROVIDERS[0].clientId is required.',
    );
    expect(refusal({ CMS_OIDC_PROVIDERS: JSON.stringify([{ ...OIDC, issuer: 'http://idp.example.com' }]) })).toMatch(
      /^CMS_OIDC_PROVIDERS\[0\]\.issuer must be an https URL/,
    );
    expect(refusal({ CMS_OIDC_PROVIDERS: JSON.stringify([{ ...OIDC, defaultRole: 'owner' }]) })).toMatch(
      /^CMS_OIDC_PROVIDERS\[0\]\.defaultRole/,
    );
    expect(
      refusal({ CMS_OIDC_PROVIDERS: JSON.stringify([{ ...OIDC, allowedEmailDomains: ['not a domain'] }]) }),
    ).toMatch(/^CMS_OIDC_PROVIDERS\[0\]\.allowedEmailDomains/);
    expect(refusal({ CMS_OIDC_PROVIDERS: JSON.stringify([{ ...OIDC, clientSecrte: 'typo' }]) })).toMatch(
      /^CMS_OIDC_PROVIDERS\[0\]\.clientSecrte is not a setting/,
    );
    const sp = { CMS_SAML_SP_KEY: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----', CMS_SAML_SP_CERT: CERT };
    expect(refusal({ ...sp, CMS_SAML_PROVIDERS: JSON.stringify([{ ...SAML, idpCert: 'not pem' }]) })).toMatch(
      /^CMS_SAML_PROVIDERS\[0\]\.idpCert must be a PEM certificate/,
    );
    expect(
      refusal({
        CMS_OIDC_PROVIDERS: JSON.stringify([OIDC]),
        CMS_SAML_PROVIDERS: JSON.stringify([{ ...SAML, slug: 'corp' }]),
      }),
    ).toMatch(/"corp" is used twice/);
    expect(refusal({ CMS_SSO_TIMEOUT_SECONDS: '0' })).toMatch(/^CMS_SSO_TIMEOUT_SECONDS/);
  });

  it('needs the SAML signing pair with DATABASE_URL, both or neither, as PEM', () => {
    expect(refusal({ CMS_SAML_PROVIDERS: JSON.stringify([SAML]) })).toMatch(
      /^CMS_SAML_SP_KEY and CMS_SAML_SP_CERT are required/,
    );
    expect(refusal({ CMS_SAML_SP_CERT: CERT })).toMatch(/Set both CMS_SAML_SP_KEY and CMS_SAML_SP_CERT/);
    expect(refusal({ CMS_SAML_SP_KEY: 'key', CMS_SAML_SP_CERT: CERT })).toMatch(
      /^CMS_SAML_SP_KEY must be a PEM private key/,
    );
    const embedded = loadConfig({
      CMS_SECRET: BASE.CMS_SECRET,
      CMS_DATA_DIR: BASE.CMS_DATA_DIR,
      CMS_SAML_PROVIDERS: JSON.stringify([SAML]),
    });
    expect(embedded.sso.saml[0]).toMatchObject({
      kind: 'saml',
      slug: 'okta',
      label: 'okta',
      idpIssuer: SAML.idpIssuer,
    });
    expect(embedded.sso.samlSp).toBeNull();
  });

  it('allows plain http only for an identity provider on a loopback host', () => {
    const config = load({
      CMS_OIDC_PROVIDERS: JSON.stringify([{ ...OIDC, issuer: 'http://127.0.0.1:8080/realms/dev' }]),
    });
    expect(config.sso.oidc[0]?.issuer).toBe('http://127.0.0.1:8080/realms/dev');
  });
});
