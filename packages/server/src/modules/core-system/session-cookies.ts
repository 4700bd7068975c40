import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_ABSOLUTE_MS } from './sessions.service.js';

/** Cookie names (interface.md "Sessions"). */
export const SESSION_COOKIE = 'cms_session';
export const CSRF_COOKIE = 'cms_csrf';
/**
 * The `__Host-` prefix (RFC 6265bis §4.1.3.2): the browser keeps such a cookie only when it is
 * Secure, has Path=/ and no Domain, so a sibling subdomain cannot plant or overwrite it.
 */
export const HOST_PREFIX = '__Host-';

/**
 * How cookies are set: `Secure` when the public address is https (decisions.md §5), and then under
 * `__Host-` names too (we never send Domain and always Path=/, the prefix's other conditions). Over
 * plain http (local development) the browser would refuse a prefixed cookie, so the plain names stay.
 */
export interface CookiePolicy {
  secure: boolean;
  sessionName: string;
  csrfName: string;
}

/** The cookie policy for a public address. */
export function cookiePolicyFor(publicUrl: string): CookiePolicy {
  const secure = new URL(publicUrl).protocol === 'https:';
  const prefix = secure ? HOST_PREFIX : '';
  return { secure, sessionName: `${prefix}${SESSION_COOKIE}`, csrfName: `${prefix}${CSRF_COOKIE}` };
}

/**
 * The session token a request carries: the `__Host-` cookie first, then the plain `cms_session`
 * (the interface's wire name, and what sessions begun before a switch to https still send).
 */
export function sessionTokenOf(cookies: Readonly<Record<string, string | undefined>>): string | null {
  return cookies[`${HOST_PREFIX}${SESSION_COOKIE}`] || cookies[SESSION_COOKIE] || null;
}

/**
 * Sets the session cookie (HttpOnly: scripts never see it) and the CSRF cookie (readable, so the Studio can
 * echo it in X-CMS-CSRF-Token), under the policy's names. Both are SameSite=Lax on Path=/ and last as long as the session can.
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
  reply.setCookie(policy.sessionName, session.token, { ...common, httpOnly: true });
  reply.setCookie(policy.csrfName, session.csrfToken, { ...common, httpOnly: false });
}

/** Tells the browser to drop the cookies (logout, ending the current session), plain names included. */
export function clearSessionCookies(reply: FastifyReply, policy: CookiePolicy): void {
  const common = { path: '/', sameSite: 'lax', secure: policy.secure } as const;
  const names = new Set([policy.sessionName, SESSION_COOKIE, policy.csrfName, CSRF_COOKIE]);
  for (const name of names) reply.clearCookie(name, { ...common, httpOnly: name.endsWith(SESSION_COOKIE) });
}

/** Where a sign-in request came from: shown in session listings; the address also feeds the backoff. */
export function signInOriginOf(request: FastifyRequest): { userAgent: string | null; ipAddress: string } {
  return { userAgent: request.headers['user-agent'] ?? null, ipAddress: request.ip };
}
