import { createHash, createHmac, randomBytes } from 'node:crypto';

const TOKEN_BYTES = 32;

/** A new random token (session, invite, setup): 32 bytes, base64url; shown once, stored hashed. */
export function generateToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** SHA-256 of a token: what the database stores and looks tokens up by. */
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/**
 * The CSRF token of a session: an HMAC of the session token under CMS_SECRET (decisions.md §1), so
 * it need not be stored, cannot be computed without the secret, and changes with every session.
 */
export function csrfTokenFor(secret: string, sessionToken: string): string {
  return createHmac('sha256', secret).update(`csrf\u0000${sessionToken}`).digest('base64url');
}

/** Tokens we issue are base64url of 32 bytes; anything else is rejected without a lookup. */
export function isWellFormedToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}
