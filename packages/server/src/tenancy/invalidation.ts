import type { FastifyBaseLogger } from 'fastify';
import type { Db, ListenEvent, Queryable } from '../storage/db.js';

/** The channel on which processes tell each other to drop cached rows (ARCHITECTURE.md "Scaling"). */
export const INVALIDATION_CHANNEL = 'cms_invalidate';

/**
 * What a cache may be told to forget; `content` is keyed by environment id. `presence` (keyed by
 * document id) and `presence-left` (keyed by `<document id>:<principal id>`) are no cache's: they tell
 * the open document streams that someone came or went, and that a person said they left.
 */
export type InvalidationTopic =
  | 'targets'
  | 'api-keys'
  | 'sessions'
  | 'schema'
  | 'content'
  | 'presence'
  | 'presence-left';

/** A bus that forwards invalidations to every process's caches, including its own. */
export interface InvalidationBus {
  /** Announces a change; inside a transaction it takes effect when that commits. */
  publish(queryable: Queryable, topic: InvalidationTopic, key?: string): Promise<void>;
  /**
   * Calls `handler(key)` for each invalidation of the topic, and `handler(null)` (forget everything)
   * when the key is absent, when notifications stop arriving and again when they are back.
   */
  subscribe(topic: InvalidationTopic, handler: (key: string | null) => void): void;
  /**
   * Whether invalidations reach this process now. False on PostgreSQL from the moment the LISTEN
   * connection is lost until a new one listens again: changes committed meanwhile, by any process,
   * go unheard. While it is false a cache must not serve entries: read through to the database.
   * Always true on PGlite (notifications are in-process).
   */
  isLive(): boolean;
  close(): Promise<void>;
}

/** Where the bus reports losing and regaining the database's notifications. */
export type InvalidationLog = Pick<FastifyBaseLogger, 'info' | 'warn'>;

/** Creates the bus on the database's notifications; `log` hears when they stop and resume. */
export async function createInvalidationBus(db: Db, options: { log?: InvalidationLog } = {}): Promise<InvalidationBus> {
  const handlers = new Map<InvalidationTopic, Set<(key: string | null) => void>>();
  let live = true;
  const forgetEverything = () => {
    for (const set of handlers.values()) for (const handler of set) handler(null);
  };
  // Invalidations may be missed from the loss until the new connection listens: caches forget
  // everything at the loss (and stop serving), and again once back (what they kept meanwhile).
  const onEvent = (event: ListenEvent) => {
    live = event.state === 'live';
    forgetEverything();
    if (event.state === 'lost') {
      options.log?.warn(
        { err: event.error, channel: INVALIDATION_CHANNEL },
        'lost the database notification connection: caches are bypassed until it is back',
      );
    } else {
      options.log?.info({ channel: INVALIDATION_CHANNEL }, 'database notifications are back: caches start afresh');
    }
  };
  const unlisten = await db.listen(
    INVALIDATION_CHANNEL,
    (payload) => {
      const [topic, ...rest] = payload.split(':');
      const key = rest.length > 0 ? rest.join(':') : null;
      for (const handler of handlers.get(topic as InvalidationTopic) ?? []) handler(key);
    },
    onEvent,
  );
  return {
    publish: (queryable, topic, key) => db.notify(queryable, INVALIDATION_CHANNEL, key ? `${topic}:${key}` : topic),
    subscribe: (topic, handler) => {
      const set = handlers.get(topic) ?? new Set();
      set.add(handler);
      handlers.set(topic, set);
    },
    isLive: () => live,
    close: unlisten,
  };
}
