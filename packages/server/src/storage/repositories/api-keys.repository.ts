import type { Scope } from '@cms/core';
import { type Queryable, READ_ONLY } from '../db.js';

/** One project/environment pair a key may act in; `*` matches any. */
export interface AllowlistEntry {
  project: string;
  environment: string;
}

/** An API key row (never holds the secret). */
export interface ApiKeyRow {
  id: string;
  kind: 'live' | 'cli' | 'preview';
  label: string;
  prefix: string;
  secretHash: Buffer;
  scopes: Scope[];
  contextAllowlist: AllowlistEntry[];
  createdBy: string | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

const COLUMNS = `id, kind, label, prefix, secret_hash as "secretHash", scopes, context_allowlist as "contextAllowlist",
  created_by as "createdBy", expires_at as "expiresAt", revoked_at as "revokedAt", last_used_at as "lastUsedAt",
  created_at as "createdAt"`;

/** Finds a key by the hash of its secret, revoked or not (the caller decides), or null. */
export async function findApiKeyByHash(db: Queryable, secretHash: Buffer): Promise<ApiKeyRow | null> {
  // Read by every request's access steps: a connection that failed under it is replaced (QueryOptions).
  const result = await db.query<ApiKeyRow>(
    `select ${COLUMNS} from api_keys where secret_hash = $1`,
    [secretHash],
    READ_ONLY,
  );
  return result.rows[0] ?? null;
}

/** Finds a key by id, revoked or not, or null. */
export async function findApiKeyById(db: Queryable, id: string): Promise<ApiKeyRow | null> {
  const result = await db.query<ApiKeyRow>(`select ${COLUMNS} from api_keys where id = $1`, [id]);
  return result.rows[0] ?? null;
}

/** Inserts a key. */
export async function insertApiKey(
  db: Queryable,
  row: Omit<ApiKeyRow, 'revokedAt' | 'lastUsedAt' | 'createdAt'>,
): Promise<ApiKeyRow> {
  const result = await db.query<ApiKeyRow>(
    `insert into api_keys (id, kind, label, prefix, secret_hash, scopes, context_allowlist, created_by, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning ${COLUMNS}`,
    [
      row.id,
      row.kind,
      row.label,
      row.prefix,
      row.secretHash,
      row.scopes,
      JSON.stringify(row.contextAllowlist),
      row.createdBy,
      row.expiresAt,
    ],
  );
  return result.rows[0] as ApiKeyRow;
}

/** Lists keys, newest first. */
export async function listApiKeys(db: Queryable): Promise<ApiKeyRow[]> {
  const result = await db.query<ApiKeyRow>(`select ${COLUMNS} from api_keys order by created_at desc, id`);
  return result.rows;
}

/** Marks a key revoked; returns null when no unrevoked key has this id. */
export async function revokeApiKey(db: Queryable, id: string): Promise<ApiKeyRow | null> {
  const result = await db.query<ApiKeyRow>(
    `update api_keys set revoked_at = now() where id = $1 and revoked_at is null returning ${COLUMNS}`,
    [id],
  );
  return result.rows[0] ?? null;
}

/** Records use of several keys at once (lastUsedAt is batched, not written per request). */
export async function touchApiKeys(db: Queryable, ids: readonly string[], at: Date): Promise<void> {
  // Sets a value: safe to run again when its connection was lost (a restart, a failover).
  await db.query('update api_keys set last_used_at = $2 where id = any($1::uuid[])', [ids, at], { idempotent: true });
}
