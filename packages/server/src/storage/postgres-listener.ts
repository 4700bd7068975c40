/**
 * LISTEN on one dedicated connection (outside the query pool) that comes back by itself after it is
 * lost. The same connection sends this process's content announcements (`query`, used by
 * storage/content-announcer.ts): PostgreSQL hands a NOTIFY back to the session that sent it when it
 * listens on the channel, and names the sending backend (`be_pid`) with each notification, so what this
 * connection NOTIFYs itself is dropped here, never handled a second time. Everything else is heard,
 * this process's own included: NOTIFYs of its pool connections (a trigger, `Db.notify`, a sweep).
 */
import pg from 'pg';
import type { ListenEvent, NotificationHandler } from './db.js';

/** Wait before the first reconnection attempt; doubled after each failed one, up to the cap, with jitter. */
const RECONNECT_BASE_MS = 100;
const RECONNECT_MAX_MS = 10_000;
/**
 * An idle connection whose network silently went away raises no error: a query this often, answered
 * within the timeout, proves it alive (a failed or late one counts as a lost connection).
 */
const HEARTBEAT_INTERVAL_MS = 30_000;
const HEARTBEAT_TIMEOUT_MS = 10_000;

/** LISTEN on one dedicated connection that comes back by itself after it is lost. */
export interface PostgresListener {
  listen(
    channel: string,
    handler: NotificationHandler,
    onEvent?: (event: ListenEvent) => void,
  ): Promise<() => Promise<void>>;
  /** Hands `payload` to this process's handlers of `channel` at once, as if it had been notified. */
  deliver(channel: string, payload: string): void;
  /**
   * Runs a statement on the LISTEN connection, or returns null while there is none (before the first
   * `listen`, between a loss and the next connection). Whatever it NOTIFYs, this process's handlers do
   * not hear: it may only announce what was already handed to them with `deliver`.
   */
  query(sql: string, params?: readonly unknown[]): Promise<pg.QueryResult> | null;
  close(): Promise<void>;
}

/** The connection in use and the channels it was asked to LISTEN on. */
interface Connection {
  client: pg.Client;
  listening: Set<string>;
}

/**
 * Starts every statement the LISTEN connection runs besides LISTEN, so that its backend stays
 * recognisable in `pg_stat_activity` whatever it ran last (its `query` starts with `listen` or with this
 * mark): operators and tests tell it from the pool's connections that way.
 */
export const LISTEN_CONNECTION_MARK = '/* cms:listen */ ';

/**
 * The connection's backend process id, as notifications name their sender. Asked of the server rather
 * than taken from the startup message, which a connection pooler may fill with an id of its own.
 */
const BACKEND_PID_SQL = `${LISTEN_CONNECTION_MARK}select pg_backend_pid() as pid`;

/**
 * Opens the LISTEN connection at the first `listen` (outside the query pool). When it fails (server
 * restart, pg_terminate_backend, network), every `onEvent` hears `lost`; new connections are tried
 * with backoff until one listens on every channel again, and then every `onEvent` hears `live`.
 */
export function createPostgresListener(connectionString: string): PostgresListener {
  const channels = new Map<string, Set<NotificationHandler>>();
  const watchers = new Set<(event: ListenEvent) => void>();
  /** Null before the first connection and between a loss and the next connection. */
  let current: Connection | null = null;
  let opening: Promise<void> | null = null;
  let lastError: unknown = null;
  let failedReconnects = 0;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let heartbeatTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const emit = (event: ListenEvent) => {
    for (const watcher of [...watchers]) watcher(event);
  };

  /** Sends LISTEN once per channel and connection; a failure means the connection is gone. */
  const listenOn = async (connection: Connection, channel: string): Promise<void> => {
    if (connection.listening.has(channel)) return;
    connection.listening.add(channel);
    try {
      await connection.client.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error: unknown) {
      lose(connection.client, error);
    }
  };

  /** A new connection, listening on every channel known by the time it is ready. */
  const open = async (): Promise<Connection> => {
    const client = new pg.Client({ connectionString, keepAlive: true });
    client.on('error', (error: Error) => lose(client, error));
    client.on('end', () => lose(client, new Error('the LISTEN connection ended')));
    /** This connection's backend: what it NOTIFYs itself was delivered in-process already (`query`). */
    let ownPid: number | null = null;
    client.on('notification', (message) => {
      if (message.processId === ownPid) return;
      for (const handler of channels.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    const listening = new Set<string>();
    try {
      await client.connect();
      ownPid = (await client.query<{ pid: number }>(BACKEND_PID_SQL)).rows[0]?.pid ?? null;
      for (const channel of channels.keys()) {
        await client.query(`listen ${pg.escapeIdentifier(channel)}`);
        listening.add(channel);
      }
      return { client, listening };
    } catch (error: unknown) {
      await client.end().catch(() => undefined);
      throw error;
    }
  };

  /** Makes an opened connection the one in use (or ends it after close); catches up on channels added meanwhile. */
  const use = async (connection: Connection): Promise<boolean> => {
    if (closed) {
      await connection.client.end().catch(() => undefined);
      return false;
    }
    current = connection;
    for (const channel of channels.keys()) void listenOn(connection, channel);
    const { client } = connection;
    heartbeatTimer = setInterval(() => heartbeat(client), HEARTBEAT_INTERVAL_MS);
    heartbeatTimer.unref();
    return true;
  };

  const heartbeat = (client: pg.Client) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the LISTEN connection missed its heartbeat')), HEARTBEAT_TIMEOUT_MS);
    });
    Promise.race([client.query(`${LISTEN_CONNECTION_MARK}select 1`), late])
      .catch((error: unknown) => lose(client, error))
      .finally(() => clearTimeout(timer));
  };

  /** The connection in use failed: drop it, tell the watchers once, and start reconnecting. */
  function lose(client: pg.Client, error: unknown): void {
    if (closed || current?.client !== client) return; // one being opened, or one already given up
    current = null;
    lastError = error;
    if (heartbeatTimer) clearInterval(heartbeatTimer);
    heartbeatTimer = null;
    client.end().catch(() => undefined);
    emit({ state: 'lost', error });
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** failedReconnects);
    reconnectTimer = setTimeout(() => void reconnect(), ceiling / 2 + (Math.random() * ceiling) / 2);
    reconnectTimer.unref();
  }

  async function reconnect(): Promise<void> {
    reconnectTimer = null;
    try {
      if (!(await use(await open()))) return;
      failedReconnects = 0;
      emit({ state: 'live' });
    } catch (error: unknown) {
      lastError = error;
      failedReconnects += 1;
      if (!closed) scheduleReconnect();
    }
  }

  /** The first connection, shared by concurrent first callers; its failure is theirs (the server does not start). */
  const start = async (): Promise<void> => {
    opening ??= open().then(async (connection) => {
      await use(connection);
    });
    try {
      await opening;
    } catch (error: unknown) {
      opening = null;
      throw error;
    }
  };

  return {
    async listen(channel, handler, onEvent) {
      if (closed) throw new Error('the database is closed');
      const handlers = channels.get(channel) ?? new Set<NotificationHandler>();
      channels.set(channel, handlers);
      handlers.add(handler);
      if (onEvent) watchers.add(onEvent);
      const unlisten = async () => {
        handlers.delete(handler);
        if (onEvent) watchers.delete(onEvent);
      };
      try {
        await start();
      } catch (error: unknown) {
        await unlisten();
        throw error;
      }
      // Lost meanwhile: the reconnection listens on this channel too, and says `live` when it does.
      if (current === null) onEvent?.({ state: 'lost', error: lastError });
      else await listenOn(current, channel);
      return unlisten;
    },
    deliver(channel, payload) {
      for (const handler of channels.get(channel) ?? []) handler(payload);
    },
    query(sql, params) {
      return current ? current.client.query(`${LISTEN_CONNECTION_MARK}${sql}`, params as unknown[] | undefined) : null;
    },
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      if (heartbeatTimer) clearInterval(heartbeatTimer);
      reconnectTimer = null;
      heartbeatTimer = null;
      watchers.clear();
      await opening?.catch(() => undefined);
      const client = current?.client;
      current = null;
      await client?.end().catch(() => undefined);
    },
  };
}
