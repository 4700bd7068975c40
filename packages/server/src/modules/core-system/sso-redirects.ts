import { isCmsError } from '@cms/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { noteAuditChanges, noteAuditOutcome } from '../../audit/audit-scope.js';
import { SSO_REQUEST_TTL_MS } from './oidc.service.js';
import { type CookiePolicy, setSessionCookies, signInOriginOf } from './session-cookies.js';
import type { IssuedSession, SignInOrigin } from './sessions.service.js';
import { SsoFailure } from './sso-sign-in.js';

/**
 * Ends a single sign-on in the browser (decisions.md §5): on success the session cookies and a 302 to
 * `{CMS_PUBLIC_URL}/studio/`; on any failure a 302 to `{CMS_PUBLIC_URL}/studio/login?error=<CODE>&reason=<word>`,
 * never an error page, a stack or a bare 500. Unexpected errors are logged with their stack.
 */
export async function finishSsoInBrowser(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: { publicUrl: string; cookies: CookiePolicy },
  finish: (origin: SignInOrigin) => Promise<IssuedSession>,
): Promise<FastifyReply> {
  reply.header('cache-control', 'no-store');
  try {
    const issued = await finish(signInOriginOf(request));
    setSessionCookies(reply, deps.cookies, issued);
    return reply.redirect(`${deps.publicUrl}/studio/`, 302);
  } catch (error: unknown) {
    let code: string;
    let reason: string;
    if (error instanceof SsoFailure) {
      ({ code, reason } = error);
      request.log.info({ code, reason, message: error.message }, 'single sign-on refused');
    } else if (isCmsError(error)) {
      code = error.code;
      reason = code === 'NOT_FOUND' ? 'unknown_provider' : 'refused';
      request.log.info({ code, message: error.message }, 'single sign-on refused');
    } else {
      code = 'INTERNAL_ERROR';
      reason = 'internal';
      request.log.error({ err: error }, 'single sign-on failed');
    }
    // The redirect is a 302 either way: the audit entry says the sign-in was refused, and why.
    noteAuditOutcome(code === 'INTERNAL_ERROR' ? 'failure' : 'denied');
    noteAuditChanges({ error: code, reason });
    const query = new URLSearchParams({ error: code, reason });
    return reply.redirect(`${deps.publicUrl}/studio/login?${query}`, 302);
  }
}

/**
 * A cookie that ties a single sign-on to the browser that started it: the answer is accepted only with
 * it, so nobody can make a victim's browser finish a sign-in the attacker started (login CSRF). Always
 * HttpOnly, limited to the route that takes the answer and to the 10 minutes a sign-in may take; it
 * serves once.
 */
interface BindingCookie {
  name: string;
  path: string;
  sameSite: 'lax' | 'none';
}

/**
 * OIDC (RFC 6749 §10.12): SameSite=Lax, sent on the provider's top-level redirect back to the callback;
 * its value is the state.
 */
export const OIDC_BINDING_COOKIE: BindingCookie = { name: 'cms_sso', path: '/api/v1/auth/sso/', sameSite: 'lax' };

/**
 * SAML: its value is the AuthnRequest's RelayState, which the identity provider posts back with the
 * answer. The ACS is a cross-site POST, which browsers send a cookie with only when it is
 * `SameSite=None`, and they accept that only with `Secure`: so it is set only with an https
 * CMS_PUBLIC_URL (docs/access-control.md).
 */
export const SAML_BINDING_COOKIE: BindingCookie = { name: 'cms_saml', path: '/api/v1/auth/saml/acs', sameSite: 'none' };

/** The attributes a binding cookie is set and cleared with (SameSite=None is only valid with Secure). */
function bindingAttributes(cookie: BindingCookie, policy: CookiePolicy) {
  return {
    path: cookie.path,
    httpOnly: true,
    sameSite: cookie.sameSite,
    secure: cookie.sameSite === 'none' || policy.secure,
  } as const;
}

/** Sets a binding cookie when a sign-in starts. */
export function setBindingCookie(
  reply: FastifyReply,
  cookie: BindingCookie,
  policy: CookiePolicy,
  value: string,
): void {
  reply.setCookie(cookie.name, value, {
    ...bindingAttributes(cookie, policy),
    maxAge: Math.floor(SSO_REQUEST_TTL_MS / 1000),
  });
}

/** The binding cookie the browser sent, or null; cleared in the answer when sent (it serves once). */
export function takeBindingCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  cookie: BindingCookie,
  policy: CookiePolicy,
): string | null {
  const header = request.headers.cookie;
  const value = header ? request.server.parseCookie(header)[cookie.name] : undefined;
  if (value) reply.clearCookie(cookie.name, bindingAttributes(cookie, policy));
  return value || null;
}
