/** Single sign-on (decisions.md §5): the provider list, starting a sign-in, the OIDC callback and SAML. */
import { type Static, Type } from 'typebox';
import { defineRoute } from './define-route.js';
import { StringEnum } from './shapes.js';

/** Path of the SSO routes: the provider's slug (an unknown one is NOT_FOUND, not a validation error). */
export const SsoProviderParamsSchema = Type.Object({ provider: Type.String({ minLength: 1, maxLength: 200 }) });

/** One configured provider, as the sign-in page lists it. */
export const SsoProviderSchema = Type.Object({
  slug: Type.String(),
  kind: StringEnum(['oidc', 'saml']),
  label: Type.String(),
});
export type SsoProvider = Static<typeof SsoProviderSchema>;

/** Answer of `POST /api/v1/auth/sso/{provider}`. */
export const SsoRedirectSchema = Type.Object({ redirectUrl: Type.String() });

/** The SAML ACS form (HTTP-POST binding): `SAMLResponse` and `RelayState`; checked by the service. */
export const SamlAcsFormSchema = Type.Object({
  SAMLResponse: Type.Optional(Type.String()),
  RelayState: Type.Optional(Type.String()),
});

export const authProvidersListRoute = defineRoute({
  id: 'auth.providers.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/auth/providers',
  summary: 'The configured single sign-on providers, for the sign-in page',
  target: 'none',
  auth: 'public',
  request: {},
  response: { status: 200, envelope: 'single', schema: Type.Array(SsoProviderSchema) },
});

export const authSsoStartRoute = defineRoute({
  id: 'auth.sso.start',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/auth/sso/{provider}',
  summary: "Start a single sign-on: the identity provider's address to send the browser to",
  target: 'none',
  auth: 'public',
  csrf: false,
  request: { params: SsoProviderParamsSchema },
  response: { status: 200, envelope: 'single', schema: SsoRedirectSchema },
});

export const authSsoCallbackRoute = defineRoute({
  id: 'auth.sso.callback',
  kind: 'command',
  method: 'GET',
  path: '/api/v1/auth/sso/{provider}/callback',
  summary: 'Where an OpenID Connect provider sends the browser back: signs in and redirects to the Studio',
  target: 'none',
  auth: 'public',
  // The authorization code and state are one-time secrets; an error answer carries none, but may echo.
  secretQuery: ['code', 'state', 'id_token', 'access_token', 'session_state', 'error_description'],
  request: { params: SsoProviderParamsSchema },
  response: { status: 302, envelope: 'raw' },
});

export const authSamlMetadataRoute = defineRoute({
  id: 'auth.saml.metadata',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/auth/saml/metadata',
  summary: "The service provider's SAML metadata (entity id, signing certificate, ACS) for the identity provider",
  // Like login, it may carry the routing headers (interface.md); they play no part.
  target: 'none',
  auth: 'public',
  request: {},
  response: { status: 200, envelope: 'raw', contentType: 'application/xml' },
  errors: ['NOT_FOUND'],
});

export const authSamlAcsRoute = defineRoute({
  id: 'auth.saml.acs',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/auth/saml/acs',
  summary: 'Assertion consumer service: the identity provider posts its answer; signs in and redirects to the Studio',
  target: 'none',
  auth: 'public',
  csrf: false,
  request: { body: SamlAcsFormSchema },
  response: { status: 302, envelope: 'raw' },
});
