import type { Queryable } from '../db.js';

/** Stores the hash of a first-admin setup token. */
export async function insertSetupToken(db: Queryable, tokenHash: Buffer): Promise<void> {
  await db.query('insert into setup_tokens (token_hash) values ($1)', [tokenHash]);
}

/** Is this a stored setup token? */
export async function hasSetupToken(db: Queryable, tokenHash: Buffer): Promise<boolean> {
  const result = await db.query('select 1 from setup_tokens where token_hash = $1', [tokenHash]);
  return result.rowCount > 0;
}

/** Deletes every setup token (setup is complete). */
export async function deleteSetupTokens(db: Queryable): Promise<void> {
  await db.query('delete from setup_tokens');
}
