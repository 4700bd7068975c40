import type { Queryable } from '../db.js';

/** A single sign-on in progress. */
export interface SsoRequestRow {
  stateHash: Buffer;
  provider: string;
  kind: 'oidc' | 'saml';
  codeVerifier: string | null;
  nonce: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** Records a sign-in started; old ones are swept by `deleteSsoRequestsExpiredBefore`. */
export async function insertSsoRequest(db: Queryable, row: SsoRequestRow): Promise<void> {
  await db.query(
    `insert into sso_requests (state_hash, provider, kind, code_verifier, nonce, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [row.stateHash, row.provider, row.kind, row.codeVerifier, row.nonce, row.createdAt, row.expiresAt],
  );
}

/**
 * Takes a sign-in in progress out of the table (single use: a second answer with the same state finds
 * nothing), or null when there is none for this provider.
 */
export async function takeSsoRequest(
  db: Queryable,
  stateHash: Buffer,
  provider: string,
): Promise<SsoRequestRow | null> {
  const result = await db.query<SsoRequestRow>(
    `delete from sso_requests where state_hash = $1 and provider = $2
     returning state_hash as "stateHash", provider, kind, code_verifier as "codeVerifier", nonce,
       created_at as "createdAt", expires_at as "expiresAt"`,
    [stateHash, provider],
  );
  return result.rows[0] ?? null;
}

/** Finds a sign-in in progress without taking it (SAML checks InResponseTo before the signature), or null. */
export async function findSsoRequest(
  db: Queryable,
  stateHash: Buffer,
  provider: string,
): Promise<SsoRequestRow | null> {
  const result = await db.query<SsoRequestRow>(
    `select state_hash as "stateHash", provider, kind, code_verifier as "codeVerifier", nonce,
       created_at as "createdAt", expires_at as "expiresAt"
     from sso_requests where state_hash = $1 and provider = $2`,
    [stateHash, provider],
  );
  return result.rows[0] ?? null;
}

/** Deletes sign-ins in progress that expired before the given time. */
export async function deleteSsoRequestsExpiredBefore(db: Queryable, before: Date): Promise<void> {
  await db.query('delete from sso_requests where expires_at < $1', [before]);
}

/** Remembers an assertion id until it expires; false when it was already used (a replay). */
export async function rememberSamlAssertion(
  db: Queryable,
  row: { provider: string; assertionId: string; expiresAt: Date },
): Promise<boolean> {
  // `on conflict` rather than catching the violation: a failed statement would abort the transaction.
  const result = await db.query(
    `insert into saml_assertions (provider, assertion_id, expires_at) values ($1, $2, $3)
     on conflict (provider, assertion_id) do nothing`,
    [row.provider, row.assertionId, row.expiresAt],
  );
  return result.rowCount === 1;
}

/** Forgets assertions that expired before the given time (they can no longer be replayed). */
export async function deleteSamlAssertionsExpiredBefore(db: Queryable, before: Date): Promise<void> {
  await db.query('delete from saml_assertions where expires_at < $1', [before]);
}

/** Was this assertion id already used (and not yet forgotten)? */
export async function isSamlAssertionKnown(db: Queryable, provider: string, assertionId: string): Promise<boolean> {
  const result = await db.query('select 1 from saml_assertions where provider = $1 and assertion_id = $2', [
    provider,
    assertionId,
  ]);
  return result.rowCount > 0;
}
