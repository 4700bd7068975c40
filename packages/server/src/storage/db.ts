/**
 * One SQL dialect (PostgreSQL) behind a small interface: PGlite embedded by default,
 * node-postgres when DATABASE_URL is set. Repositories only see `Queryable`.
 */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

/** Something that runs parameterised SQL: the database or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
}

/** An open transaction; `withTransaction` joins it instead of nesting. */
export interface Transaction extends Queryable {
  readonly inTransaction: true;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** A notification received through LISTEN (PostgreSQL) or raised in-process (PGlite). */
export type NotificationHandler = (payload: string) => void;

/** The database: queries, transactions, notifications, close. */
export interface Db extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Subscribes to a channel; returns the unsubscribe function. */
  listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>>;
  /** Sends a notification to every process listening on the channel (after commit when in a transaction). */
  notify(queryable: Queryable, channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

/** Runs fn in a transaction, or inside the caller's open transaction. */
export async function withTransaction<T>(db: Db | Queryable, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  if (isTransaction(db)) return fn(db);
  if (!('transaction' in db)) throw new Error('withTransaction needs a Db or an open transaction');
  return (db as Db).transaction(fn);
}

function isTransaction(value: Db | Queryable): value is Transaction {
  return (value as Partial<Transaction>).inTransaction === true;
}

/** Is this a driver error with this SQLSTATE (and, optionally, this constraint)? */
export function isSqlState(error: unknown, code: string, constraint?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; constraint?: unknown };
  return e.code === code && (constraint === undefined || e.constraint === constraint);
}

export const SQLSTATE = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  serializationFailure: '40001',
} as const;
