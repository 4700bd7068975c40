import { authSamlAcsRoute, authSamlMetadataRoute } from '@cms/core';
import type { FastifyInstance } from 'fastify';
import { defineAction } from '../../actions/define-action.js';
import type { SamlService } from './saml.service.js';
import type { CookiePolicy } from './session-cookies.js';
import { finishSsoInBrowser, SAML_BINDING_COOKIE, takeBindingCookie } from './sso-redirects.js';

/** The ACS alone parses `application/x-www-form-urlencoded` (what IdPs post); nothing else does. */
async function parseForms(scope: FastifyInstance): Promise<void> {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}

/** SAML 2.0: the service provider's metadata and the assertion consumer service. */
export function samlActions(deps: { saml: SamlService; publicUrl: string; cookies: CookiePolicy }) {
  return [
    defineAction({
      route: authSamlMetadataRoute,
      permissions: [],
      cli: { visibility: 'hidden' },
      handler: async (_input, _ctx, { reply }) => {
        const xml = await deps.saml.metadata();
        return reply.code(200).type('application/xml').send(xml);
      },
    }),
    defineAction({
      route: authSamlAcsRoute,
      permissions: [],
      setupScope: parseForms,
      studio: { visibility: 'hidden' },
      cli: { visibility: 'hidden' },
      handler: async ({ body }, _ctx, { request, reply }) => {
        const binding = takeBindingCookie(request, reply, SAML_BINDING_COOKIE, deps.cookies);
        return finishSsoInBrowser(request, reply, deps, (origin) =>
          deps.saml.finish(body ?? {}, { ...origin, binding, bindingRequired: deps.cookies.secure }),
        );
      },
    }),
  ];
}
