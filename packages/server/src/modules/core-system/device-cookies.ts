import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type CookiePolicy, HOST_PREFIX } from './session-cookies.js';

/**
 * Device cookies (docs/access-control.md "Login backoff"; OWASP "Slow Down Online Guessing Attacks with
 * Device Cookies"): a browser that signed in as an email gets a cookie naming a random device id, signed
 * for that email with a key derived from CMS_SECRET. Its later attempts for that email count against the
 * device alone, so failures from elsewhere (other addresses, the same office NAT) never lock it out.
 */
export const DEVICE_COOKIE = 'cms_device';
/** A year: a device that signed in once stays known; each sign-in sets it again. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 86_400;

const VERSION = 'd1';
const ID_BYTES = 16;
// Fixed salt and info: the same CMS_SECRET always yields the same key, and this key serves no other use.
const HKDF_SALT = 'cms/device-cookie/salt';
const HKDF_INFO = 'cms device cookie v1';

/** Where a sign-in attempt (a password, a current password, a code) comes from. */
export interface AttemptSource {
  /** The client address, through trusted proxies only (`CMS_TRUST_PROXY`). */
  address: string;
  /** The device cookie the request carried, unchecked; null without one. */
  deviceCookie: string | null;
}

/** Signs and checks device cookies with a key derived from the server secret. */
export interface DeviceCookies {
  /** A cookie value for this email: the known device's id again, or a new one. */
  issue(email: string, deviceId?: string | null): string;
  /** The device id of a cookie signed for this email, else null (absent, malformed, another email, forged). */
  deviceIdOf(cookie: string | null, email: string): string | null;
}

export function createDeviceCookies(serverSecret: string): DeviceCookies {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, HKDF_SALT, HKDF_INFO, 32));
  const mac = (id: string, email: string) =>
    createHmac('sha256', key).update(`${VERSION}\u0000${id}\u0000${email}`).digest();
  return {
    issue(email, deviceId) {
      const id = deviceId ?? randomBytes(ID_BYTES).toString('base64url');
      return `${VERSION}.${id}.${mac(id, email).toString('base64url')}`;
    },
    deviceIdOf(cookie, email) {
      const [version, id, signature, ...rest] = (cookie ?? '').split('.');
      if (version !== VERSION || !id || !signature || rest.length > 0 || !/^[A-Za-z0-9_-]{22}$/.test(id)) return null;
      const sent = Buffer.from(signature, 'base64url');
      const expected = mac(id, email);
      return sent.length === expected.length && timingSafeEqual(sent, expected) ? id : null;
    },
  };
}

/** The client address and the device cookie of a request (the `__Host-` name first, as for sessions). */
export function attemptSourceOf(request: FastifyRequest): AttemptSource {
  const header = request.headers.cookie;
  const cookies = header ? request.server.parseCookie(header) : {};
  return {
    address: request.ip,
    deviceCookie: cookies[`${HOST_PREFIX}${DEVICE_COOKIE}`] || cookies[DEVICE_COOKIE] || null,
  };
}

/**
 * Sets the device cookie after a sign-in: HttpOnly, SameSite=Strict (only the Studio's own requests
 * carry it), Secure and `__Host-` under https, as the session cookies.
 */
export function setDeviceCookie(reply: FastifyReply, policy: CookiePolicy, value: string): void {
  reply.setCookie(policy.secure ? `${HOST_PREFIX}${DEVICE_COOKIE}` : DEVICE_COOKIE, value, {
    path: '/',
    sameSite: 'strict',
    secure: policy.secure,
    httpOnly: true,
    maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
  });
}
