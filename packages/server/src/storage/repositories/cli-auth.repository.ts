import type { Queryable } from '../db.js';

/** Where a device challenge stands (interface.md "Command-line device challenge"; `denied` is ours). */
export type CliChallengeState = 'pending' | 'authorized' | 'exchanged' | 'denied';

/** A device challenge row; the id and the code are held only as hashes. */
export interface CliChallengeRow {
  idHash: Buffer;
  project: string;
  environment: string;
  callbackUrl: string | null;
  /** Printed by the command line and shown on the authorize page; not a secret. */
  userCode: string;
  state: CliChallengeState;
  codeHash: Buffer | null;
  authorizedBy: string | null;
  authorizedAt: Date | null;
  failedAttempts: number;
  exchangedAt: Date | null;
  deniedAt: Date | null;
  createdAt: Date;
  expiresAt: Date;
}

const COLUMNS = `id_hash as "idHash", project, environment, callback_url as "callbackUrl", user_code as "userCode", state,
  code_hash as "codeHash", authorized_by as "authorizedBy", authorized_at as "authorizedAt",
  failed_attempts as "failedAttempts", exchanged_at as "exchangedAt", denied_at as "deniedAt", created_at as "createdAt",
  expires_at as "expiresAt"`;

/** Inserts a new pending challenge. */
/**
 * Inserts a challenge unless its client started `limit` or more since `since`, in one statement.
 * Answers whether it was inserted and, when it was not, when the oldest of those counted was started.
 */
export async function insertCliChallengeWithinLimit(
  db: Queryable,
  row: Pick<
    CliChallengeRow,
    'idHash' | 'project' | 'environment' | 'callbackUrl' | 'userCode' | 'createdAt' | 'expiresAt'
  > & { clientKey: Buffer },
  bound: { since: Date; limit: number },
): Promise<{ inserted: boolean; oldestCounted: Date | null }> {
  const result = await db.query<{ inserted: boolean; oldest: Date | null }>(
    `with recent as (
       select count(*)::int as n, min(created_at) as oldest from cli_challenges
       where client_key = $8 and created_at > $9),
     added as (
       insert into cli_challenges (id_hash, project, environment, callback_url, user_code, created_at, expires_at, client_key)
       select $1, $2, $3, $4, $5, $6, $7, $8 from recent where recent.n < $10
       returning 1)
     select exists (select 1 from added) as inserted, (select oldest from recent) as oldest`,
    [
      row.idHash,
      row.project,
      row.environment,
      row.callbackUrl,
      row.userCode,
      row.createdAt,
      row.expiresAt,
      row.clientKey,
      bound.since,
      bound.limit,
    ],
  );
  const answer = result.rows[0];
  return { inserted: answer?.inserted === true, oldestCounted: answer?.oldest ?? null };
}

/** Finds a challenge by the hash of its id, or null. */
export async function findCliChallenge(db: Queryable, idHash: Buffer): Promise<CliChallengeRow | null> {
  const result = await db.query<CliChallengeRow>(`select ${COLUMNS} from cli_challenges where id_hash = $1`, [idHash]);
  return result.rows[0] ?? null;
}

/** Finds a challenge and locks it for the rest of the transaction (exchange), or null. */
export async function findCliChallengeForUpdate(db: Queryable, idHash: Buffer): Promise<CliChallengeRow | null> {
  const result = await db.query<CliChallengeRow>(
    `select ${COLUMNS} from cli_challenges where id_hash = $1 for update`,
    [idHash],
  );
  return result.rows[0] ?? null;
}

/** Authorizes a pending, unexpired challenge; null when it was not pending any more (a race lost). */
export async function authorizeCliChallengeIfPending(
  db: Queryable,
  args: { idHash: Buffer; codeHash: Buffer; userId: string; now: Date },
): Promise<CliChallengeRow | null> {
  const result = await db.query<CliChallengeRow>(
    `update cli_challenges set state = 'authorized', code_hash = $2, authorized_by = $3, authorized_at = $4
     where id_hash = $1 and state = 'pending' and expires_at > $4
     returning ${COLUMNS}`,
    [args.idHash, args.codeHash, args.userId, args.now],
  );
  return result.rows[0] ?? null;
}

/** Denies a pending, unexpired challenge; null when it was not pending any more (a race lost). */
export async function denyCliChallengeIfPending(
  db: Queryable,
  args: { idHash: Buffer; now: Date },
): Promise<CliChallengeRow | null> {
  const result = await db.query<CliChallengeRow>(
    `update cli_challenges set state = 'denied', denied_at = $2
     where id_hash = $1 and state = 'pending' and expires_at > $2
     returning ${COLUMNS}`,
    [args.idHash, args.now],
  );
  return result.rows[0] ?? null;
}

/** Counts one wrong code; returns the new count. */
export async function countWrongCliCode(db: Queryable, idHash: Buffer): Promise<number> {
  const result = await db.query<{ failedAttempts: number }>(
    `update cli_challenges set failed_attempts = failed_attempts + 1 where id_hash = $1
     returning failed_attempts as "failedAttempts"`,
    [idHash],
  );
  return result.rows[0]?.failedAttempts ?? 0;
}

/** Marks an authorized challenge exchanged (its code is spent). */
export async function markCliChallengeExchanged(db: Queryable, idHash: Buffer, now: Date): Promise<void> {
  await db.query(`update cli_challenges set state = 'exchanged', exchanged_at = $2 where id_hash = $1`, [idHash, now]);
}

/** Deletes challenges that expired before the given time. */
export async function deleteCliChallengesExpiredBefore(db: Queryable, before: Date): Promise<number> {
  const result = await db.query('delete from cli_challenges where expires_at < $1', [before]);
  return result.rowCount;
}
