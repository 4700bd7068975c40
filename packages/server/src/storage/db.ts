/**
 * One SQL dialect (PostgreSQL) behind a small interface: PGlite embedded by default,
 * node-postgres when DATABASE_URL is set. Repositories only see `Queryable`.
 */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

/** How to run one statement. */
export interface QueryOptions {
  /**
   * Run it as a named prepared statement: PostgreSQL parses and plans the text once per connection
   * instead of on every call (a third to a half of a hot read's database time). Only for statements
   * run often whose text comes from a bounded set; ignored on PGlite, which has no plan cache.
   */
  prepare?: boolean;
  /**
   * The statement writes nothing, so it may run again when its connection failed under it (a
   * PostgreSQL restart or failover, an idle connection the server or a proxy closed): the caller
   * never sees such a failure unless the database stays unreachable. A write outside a transaction
   * is not run again, as it may have committed before the failure. Ignored on PGlite.
   */
  readOnly?: boolean;
  /**
   * A write that may safely run twice (it sets values, it adds nothing): run again like a read-only
   * statement when its pooled connection failed, though the first run may have committed.
   */
  idempotent?: boolean;
}

/** The options of a statement that writes nothing (QueryOptions.readOnly). */
export const READ_ONLY: QueryOptions = { readOnly: true };

/** Something that runs parameterised SQL: the database or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<T>>;
}

/** An open transaction; `withTransaction` joins it instead of nesting. */
export interface Transaction extends Queryable {
  readonly inTransaction: true;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** A notification received through LISTEN (PostgreSQL) or raised in-process (PGlite). */
export type NotificationHandler = (payload: string) => void;

/**
 * The LISTEN connection changed (PostgreSQL only; in-process notifications are never lost): `lost`
 * when it failed (notifications sent from then on are not delivered), `live` once a new connection
 * listens on every channel again. Anything announced in between was missed.
 */
export type ListenEvent = { state: 'lost'; error: unknown } | { state: 'live' };

/** The database: queries, transactions, notifications, close. */
export interface Db extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  /**
   * Runs fn in a transaction: committed when it resolves, rolled back when it throws. On PostgreSQL a
   * transaction the server aborts as a deadlock victim or on a serialization failure, or whose
   * connection fails before its COMMIT, is run again from the start (a few times, with backoff; then
   * SERVICE_UNAVAILABLE), so fn must have no effect outside the transaction: touch caches, files or
   * other services after it returns.
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Subscribes to a channel; returns the unsubscribe function. `onEvent` hears when the LISTEN
   * connection is lost and when it listens again (never on PGlite).
   */
  listen(
    channel: string,
    handler: NotificationHandler,
    onEvent?: (event: ListenEvent) => void,
  ): Promise<() => Promise<void>>;
  /** Sends a notification to every process listening on the channel (after commit when in a transaction). */
  notify(queryable: Queryable, channel: string, payload: string): Promise<void>;
  /**
   * Wakes the listeners of a work queue's channel once the transaction commits (at once outside one).
   * Unlike `notify` it sends nothing inside the transaction: PostgreSQL serialises the commits of
   * transactions that NOTIFY, each holding a lock across its WAL flush, and would make concurrent
   * writers wait for each other. Not durable: this process hears it before the transaction returns,
   * the others shortly after, unless this process dies in between. Only for listeners that also poll.
   */
  wake(queryable: Queryable, channel: string, payload: string): Promise<void>;
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
  deadlockDetected: '40P01',
} as const;
