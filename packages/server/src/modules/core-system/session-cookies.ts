import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_ABSOLUTE_MS } from './sessions.service.js';

/** Cookie names (interface.md "Sessions"). */
export const SESSION_COOKIE = 'cms_session';
export const CSRF_COOKIE = 'cms_csrf';

/** How cookies are set: `Secure` when the public address is https (decisions.md §5). */
export interface CookiePolicy {
  secure: boolean;
}

/** The cookie policy for a public address. */
export function cookiePolicyFor(publicUrl: string): CookiePolicy {
  return { secure: new URL(publicUrl).protocol === 'https:' };
}

/**
 * Sets `cms_session` (HttpOnly: scripts never see it) and `cms_csrf` (readable, so the Studio can
 * echo it in X-CMS-CSRF-Token). Both are SameSite=Lax on Path=/ and last as long as the session can.
 */
export function setSessionCookies(
  reply: FastifyReply,
  policy: CookiePolicy,
  session: { token: string; csrfToken: string },
): void {
  const common = {
    path: '/',
    sameSite: 'lax',
    secure: policy.secure,
    maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
  } as const;
  reply.setCookie(SESSION_COOKIE, session.token, { ...common, httpOnly: true });
  reply.setCookie(CSRF_COOKIE, session.csrfToken, { ...common, httpOnly: false });
}

/** Tells the browser to drop both cookies (logout, ending the current session). */
export function clearSessionCookies(reply: FastifyReply, policy: CookiePolicy): void {
  const common = { path: '/', sameSite: 'lax', secure: policy.secure } as const;
  reply.clearCookie(SESSION_COOKIE, { ...common, httpOnly: true });
  reply.clearCookie(CSRF_COOKIE, { ...common, httpOnly: false });
}

/** Where a sign-in request came from: shown in session listings; the address also feeds the backoff. */
export function signInOriginOf(request: FastifyRequest): { userAgent: string | null; ipAddress: string } {
  return { userAgent: request.headers['user-agent'] ?? null, ipAddress: request.ip };
}
