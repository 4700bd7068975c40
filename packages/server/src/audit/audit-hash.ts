import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level: the text an entry's hash covers. jsonb keeps no key
 * order, so the order an entry was written in cannot be the one it is checked in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}

/** The fields of an entry its hash covers (everything but the hash). */
export interface HashedFields {
  chainKey: string;
  seq: number;
  id: string;
  /** ISO 8601 with milliseconds, as stored (timestamptz keeps microseconds; entries are written at ms). */
  at: string;
  actor: { type: string; id: string; label: string | null };
  action: string;
  target: Record<string, string | null>;
  outcome: string;
  requestId: string | null;
  /** Hashed only when set (left out when null), so entries written before the field still hash as they did. */
  clientRequestId?: string | null;
  ip: string | null;
  changes: unknown;
}

/** SHA-256 (hex) of the previous entry's hash and this entry's canonical fields. */
export function entryHash(prevHash: string, fields: HashedFields): string {
  return createHash('sha256').update(prevHash).update('\n').update(canonicalJson(fields)).digest('hex');
}
