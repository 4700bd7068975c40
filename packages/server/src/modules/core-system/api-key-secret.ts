import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_KINDS = ['live', 'cli', 'preview'] as const;

/** Which family a key belongs to, visible in its prefix (interface.md "API keys"). */
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

const KEY_PATTERN = /^cms_key_(live|cli|preview)_([A-Za-z0-9_-]{43})$/;
const SECRET_BYTES = 32;
const DISPLAY_CHARS = 6;

/** Makes a new key: the full text (shown once), its display prefix and the hash we store. */
export function generateApiKey(kind: ApiKeyKind): { apiKey: string; prefix: string; secretHash: Buffer } {
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  const apiKey = `cms_key_${kind}_${secret}`;
  return { apiKey, prefix: `cms_key_${kind}_${secret.slice(0, DISPLAY_CHARS)}`, secretHash: hashApiKey(apiKey) };
}

/** Parses a presented key; null when it is not shaped like one of ours. */
export function parseApiKey(text: string): { kind: ApiKeyKind; apiKey: string } | null {
  const match = KEY_PATTERN.exec(text);
  return match ? { kind: match[1] as ApiKeyKind, apiKey: text } : null;
}

/** SHA-256 of the key text: what the database stores and looks keys up by. */
export function hashApiKey(apiKey: string): Buffer {
  return createHash('sha256').update(apiKey).digest();
}

/** Constant-time equality of two hashes. */
export function hashesEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
