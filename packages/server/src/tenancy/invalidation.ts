import type { Db, Queryable } from '../storage/db.js';

/** The channel on which processes tell each other to drop cached rows (ARCHITECTURE.md "Scaling"). */
export const INVALIDATION_CHANNEL = 'cms_invalidate';

/** What a cache may be told to forget. */
export type InvalidationTopic = 'targets' | 'api-keys' | 'sessions' | 'schema';

/** A bus that forwards invalidations to every process's caches, including its own. */
export interface InvalidationBus {
  /** Announces a change; inside a transaction it takes effect when that commits. */
  publish(queryable: Queryable, topic: InvalidationTopic, key?: string): Promise<void>;
  subscribe(topic: InvalidationTopic, handler: (key: string | null) => void): void;
  close(): Promise<void>;
}

/** Creates the bus on the database's notifications. */
export async function createInvalidationBus(db: Db): Promise<InvalidationBus> {
  const handlers = new Map<InvalidationTopic, Set<(key: string | null) => void>>();
  const unlisten = await db.listen(INVALIDATION_CHANNEL, (payload) => {
    const [topic, ...rest] = payload.split(':');
    const key = rest.length > 0 ? rest.join(':') : null;
    for (const handler of handlers.get(topic as InvalidationTopic) ?? []) handler(key);
  });
  return {
    publish: (queryable, topic, key) => db.notify(queryable, INVALIDATION_CHANNEL, key ? `${topic}:${key}` : topic),
    subscribe: (topic, handler) => {
      const set = handlers.get(topic) ?? new Set();
      set.add(handler);
      handlers.set(topic, set);
    },
    close: unlisten,
  };
}
