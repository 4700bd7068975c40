/**
 * What an audit entry says changed (docs/audit.md "Changes"): a small description, never the content
 * itself at full size, and never a secret.
 */
import { unstorablePart } from '../storage/storable-text.js';

/** Largest `changes` an entry keeps, as JSON text; a larger one keeps only its keys. */
export const MAX_CHANGES_BYTES = 4096;
/** Longest string value kept in `changes`; longer ones are cut with a marker. */
export const MAX_CHANGES_STRING = 200;
/** What a redacted value is replaced with. */
export const REDACTED = '[redacted]';

/** Keys whose values are secrets (webhook secrets, passwords, tokens, keys, codes), at any depth. */
const SECRET_KEY =
  /secret|password|passphrase|token|apikey|api_key|authorization|cookie|credential|^key$|privatekey|^code$|recovery/i;

/** A string that is an absolute URL with an authority (`https://...`), as webhook URLs are. */
const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * A URL with only its scheme and host kept: the path, query, fragment and user info become
 * `[redacted]`, since receivers put their secrets there (a Slack hook's `/services/T000/B000/SECRET`,
 * `?token=`, `user:pass@`). Null when the string is no URL.
 */
export function redactUrl(text: string): string | null {
  if (!ABSOLUTE_URL.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.host === '') return null;
  const more = url.username || url.password || url.pathname.length > 1 || url.search || url.hash;
  return `${url.protocol}//${url.host}/${more ? REDACTED : ''}`;
}

/**
 * A string PostgreSQL stores, as it is; else a marker naming what it held (a NUL, a lone surrogate) but
 * not the text: a request refused for such input is still an entry, which its own values would prevent.
 */
export function storableText(value: string): string {
  const part = unstorablePart(value);
  if (part === null) return value;
  return `[not stored: ${value.length} characters with ${part === 'nul' ? 'a NUL character' : 'a lone surrogate'}]`;
}

/**
 * A copy with every secret value replaced, URLs reduced to their host, long strings cut, and text
 * PostgreSQL cannot store (values and keys) replaced by a marker.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[nested too deep]';
  if (typeof value === 'string') {
    if (unstorablePart(value) !== null) return storableText(value);
    const url = redactUrl(value);
    if (url !== null) return url;
    return value.length > MAX_CHANGES_STRING ? `${cutAt(value, MAX_CHANGES_STRING)}… (${value.length} chars)` : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  let unstorableKeys = 0;
  for (const [sent, inner] of Object.entries(value as Record<string, unknown>)) {
    let key = sent;
    if (unstorablePart(sent) !== null) {
      unstorableKeys += 1;
      key = `[key not stored ${unstorableKeys}]`;
    }
    out[key] = SECRET_KEY.test(key) ? REDACTED : redact(inner, depth + 1);
  }
  return out;
}

/**
 * The first `length` UTF-16 units of a string, one fewer when the cut would split a surrogate pair: a
 * lone half is no text PostgreSQL stores in jsonb, and the entry, written in the change's transaction,
 * would take the change down with it.
 */
function cutAt(text: string, length: number): string {
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

/** Redacted and held to {@link MAX_CHANGES_BYTES}: too large, only the top-level keys are kept. */
export function capChanges(value: unknown): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  const safe = redact(value);
  const record = safe !== null && typeof safe === 'object' && !Array.isArray(safe) ? safe : { value: safe };
  if (Buffer.byteLength(JSON.stringify(record)) <= MAX_CHANGES_BYTES) return record as Record<string, unknown>;
  return { truncated: true, keys: Object.keys(record as object).slice(0, 100) };
}

/**
 * What a request body changes, as entries of actions without a closer diff show it. Redacted and capped
 * once, when the entry is written: capping here too would cut an already cut string again.
 */
export function inputChanges(body: unknown): Record<string, unknown> | null {
  if (body === undefined || body === null) return null;
  return { input: body };
}

/** A document before and after, as far as the entry tells it. */
export interface DocumentSide {
  frontmatter: Record<string, unknown>;
  body: string;
}

/** Frontmatter keys added, removed and changed, and the body's line counts (never the text). */
export function documentChanges(before: DocumentSide | null, after: DocumentSide | null): Record<string, unknown> {
  const from = before?.frontmatter ?? {};
  const to = after?.frontmatter ?? {};
  const added = Object.keys(to).filter((key) => !(key in from));
  const removed = Object.keys(from).filter((key) => !(key in to));
  const changed = Object.keys(to).filter((key) => key in from && JSON.stringify(from[key]) !== JSON.stringify(to[key]));
  const linesBefore = before ? lineCount(before.body) : 0;
  const linesAfter = after ? lineCount(after.body) : 0;
  const diff = before && after ? lineDiff(before.body, after.body) : { added: linesAfter, removed: linesBefore };
  return {
    frontmatter: { added, removed, changed },
    body: { linesBefore, linesAfter, linesAdded: diff.added, linesRemoved: diff.removed },
  };
}

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Lines added and removed, counted as a multiset difference (cheap, order-blind, good enough to tell size). */
function lineDiff(before: string, after: string): { added: number; removed: number } {
  const counts = new Map<string, number>();
  for (const line of before.split('\n')) counts.set(line, (counts.get(line) ?? 0) + 1);
  let added = 0;
  for (const line of after.split('\n')) {
    const left = counts.get(line) ?? 0;
    if (left > 0) counts.set(line, left - 1);
    else added += 1;
  }
  let removed = 0;
  for (const left of counts.values()) removed += left;
  return { added, removed };
}
