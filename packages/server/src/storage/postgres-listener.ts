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
  close(): Promise<void>;
}

/** The connection in use and the channels it was asked to LISTEN on. */
interface Connection {
  client: pg.Client;
  listening: Set<string>;
}

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
    client.on('notification', (message) => {
      for (const handler of channels.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    const listening = new Set<string>();
    try {
      await client.connect();
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
    Promise.race([client.query('select 1'), late])
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
