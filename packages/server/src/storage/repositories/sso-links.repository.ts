import type { Queryable } from '../db.js';

/** Is the user linked to this sign-in provider (created by it, or matched through an opted-in one)? */
export async function isUserLinkedToProvider(db: Queryable, userId: string, provider: string): Promise<boolean> {
  const result = await db.query('select 1 from user_sso_links where user_id = $1 and provider = $2', [
    userId,
    provider,
  ]);
  return result.rows.length > 0;
}

/** Links a user to a sign-in provider (a no-op when already linked). */
export async function linkUserToProvider(db: Queryable, userId: string, provider: string, now: Date): Promise<void> {
  await db.query(
    `insert into user_sso_links (user_id, provider, linked_at) values ($1, $2, $3)
     on conflict (user_id, provider) do nothing`,
    [userId, provider, now],
  );
}
