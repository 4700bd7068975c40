import { isCmsError } from '@cms/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
    const query = new URLSearchParams({ error: code, reason });
    return reply.redirect(`${deps.publicUrl}/studio/login?${query}`, 302);
  }
}

/** The cookie that ties an OIDC sign-in to the browser that started it (RFC 6749 §10.12). */
export const SSO_BINDING_COOKIE = 'cms_sso';
const SSO_COOKIE_PATH = '/api/v1/auth/sso/';

/**
 * Sets the binding cookie when a sign-in starts: the callback is accepted only with it, so nobody can
 * make a victim's browser finish a sign-in the attacker started (login CSRF). HttpOnly, SameSite=Lax
 * (sent on the provider's top-level redirect back), limited to the SSO routes and to the 10 minutes
 * a sign-in may take.
 */
export function setSsoBindingCookie(reply: FastifyReply, policy: CookiePolicy, value: string): void {
  reply.setCookie(SSO_BINDING_COOKIE, value, {
    path: SSO_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: policy.secure,
    maxAge: Math.floor(SSO_REQUEST_TTL_MS / 1000),
  });
}

/** The binding cookie the browser sent, or null; always cleared in the answer (it serves once). */
export function takeSsoBindingCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  policy: CookiePolicy,
): string | null {
  const header = request.headers.cookie;
  const value = header ? request.server.parseCookie(header)[SSO_BINDING_COOKIE] : undefined;
  if (value) {
    reply.clearCookie(SSO_BINDING_COOKIE, {
      path: SSO_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: policy.secure,
    });
  }
  return value || null;
}

/**
 * The cookie that ties a SAML sign-in to the browser that started it: its value is the RelayState of
 * the AuthnRequest, which the identity provider posts back to the ACS with the answer. The ACS is a
 * cross-site POST, which browsers send a cookie with only when it is `SameSite=None`, and they accept
 * that only with `Secure`: so it exists only with an https CMS_PUBLIC_URL (docs/access-control.md).
 */
export const SAML_BINDING_COOKIE = 'cms_saml';
const SAML_COOKIE_PATH = '/api/v1/auth/saml/acs';

/** Sets the SAML binding cookie (https only, see above). HttpOnly, limited to the ACS and to 10 minutes. */
export function setSamlBindingCookie(reply: FastifyReply, value: string): void {
  reply.setCookie(SAML_BINDING_COOKIE, value, {
    path: SAML_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'none',
    secure: true,
    maxAge: Math.floor(SSO_REQUEST_TTL_MS / 1000),
  });
}

/** The SAML binding cookie the browser sent, or null; cleared in the answer when sent (it serves once). */
export function takeSamlBindingCookie(request: FastifyRequest, reply: FastifyReply): string | null {
  const header = request.headers.cookie;
  const value = header ? request.server.parseCookie(header)[SAML_BINDING_COOKIE] : undefined;
  if (value) {
    reply.clearCookie(SAML_BINDING_COOKIE, { path: SAML_COOKIE_PATH, httpOnly: true, sameSite: 'none', secure: true });
  }
  return value || null;
}
