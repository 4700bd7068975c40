import { authProvidersListRoute, authSsoCallbackRoute, authSsoStartRoute, notFound } from '@cms/core';
import { defineAction } from '../../actions/define-action.js';
import type { OidcProviderSettings, SamlProviderSettings, SsoSettings } from '../../sso-settings.js';
import type { OidcService } from './oidc.service.js';
import { generateToken } from './secret-tokens.js';
import type { CookiePolicy } from './session-cookies.js';
import {
  finishSsoInBrowser,
  OIDC_BINDING_COOKIE,
  SAML_BINDING_COOKIE,
  setBindingCookie,
  takeBindingCookie,
} from './sso-redirects.js';

/** What the SSO routes need of the SAML side (absent when no SAML provider is configured). */
export interface SamlStarter {
  start(provider: SamlProviderSettings, binding: string | null): Promise<{ redirectUrl: string }>;
}

/** Single sign-on: the provider list, starting a sign-in, and the OIDC callback. */
export function ssoActions(deps: {
  settings: SsoSettings;
  oidc: OidcService;
  saml: SamlStarter | null;
  publicUrl: string;
  cookies: CookiePolicy;
}) {
  const providers = [...deps.settings.oidc, ...deps.settings.saml];
  const find = (slug: string) => providers.find((provider) => provider.slug === slug) ?? null;
  const findOidc = (slug: string): OidcProviderSettings => {
    const provider = find(slug);
    if (provider?.kind !== 'oidc') throw notFound('Sign-in provider');
    return provider;
  };

  return [
    defineAction({
      route: authProvidersListRoute,
      permissions: [],
      handler: async () => providers.map(({ slug, kind, label }) => ({ slug, kind, label })),
    }),
    defineAction({
      route: authSsoStartRoute,
      permissions: [],
      cli: { visibility: 'hidden' },
      handler: async ({ params }, _ctx, { reply }) => {
        const provider = find(params.provider);
        if (!provider) throw notFound('Sign-in provider');
        if (provider.kind === 'oidc') {
          const { redirectUrl, state } = await deps.oidc.start(provider);
          setBindingCookie(reply, OIDC_BINDING_COOKIE, deps.cookies, state);
          return { redirectUrl };
        }
        if (!deps.saml) throw notFound('Sign-in provider');
        // Bound to this browser by a cookie only over https (sso-redirects.ts, SAML_BINDING_COOKIE).
        const binding = deps.cookies.secure ? generateToken() : null;
        const started = await deps.saml.start(provider, binding);
        if (binding) setBindingCookie(reply, SAML_BINDING_COOKIE, deps.cookies, binding);
        return started;
      },
    }),
    defineAction({
      route: authSsoCallbackRoute,
      permissions: [],
      studio: { visibility: 'hidden' },
      cli: { visibility: 'hidden' },
      handler: async ({ params }, _ctx, { request, reply }) => {
        const query = new URLSearchParams(
          request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '',
        );
        const binding = takeBindingCookie(request, reply, OIDC_BINDING_COOKIE, deps.cookies);
        return finishSsoInBrowser(request, reply, deps, (origin) =>
          deps.oidc.finish(findOidc(params.provider), query, { ...origin, binding }),
        );
      },
    }),
  ];
}
