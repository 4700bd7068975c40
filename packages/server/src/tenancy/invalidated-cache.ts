/**
 * A per-process cache of database lookups that one invalidation topic clears (docs/architecture.md,
 * "Caches"): bounded with LRU eviction, optionally aged on the server's clock, never refilled by a
 * lookup that started before a forget, and bypassed while the bus cannot deliver invalidations.
 * The API key, target and schema caches all use it; the published read cache is a different thing
 * (byte budget, per-environment stamps: modules/domain-content/read-cache/).
 */
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.js';
import type { InvalidationBus, InvalidationTopic } from './invalidation.js';

/** What a cache holds, what clears it, and for how long it may serve an entry. */
export interface InvalidatedCacheOptions<V> {
  /** The bus that clears the cache; while it is not live nothing is served or stored. */
  bus: Pick<InvalidationBus, 'subscribe' | 'isLive'>;
  /** Any invalidation of this topic, whatever its key, drops every entry. */
  topic: InvalidationTopic;
  /** Most entries held; past it the least recently used goes. */
  maxEntries: number;
  /** How long an entry is served, measured on `clock`; without it, until a forget or eviction. */
  lifetime?: { ms: number; clock: Clock };
  /** Whether a loaded value is kept (default: every one, `null` included). */
  keeps?: (value: V) => boolean;
}

/** A cache of values of type `V` (which may be `null`, never `undefined`) by string key. */
export interface InvalidatedCache<V> {
  /**
   * The cached value of `key`, else what `load` reads, kept unless a forget (or the bus going down)
   * happened while it read: that read may predate the change the forget announced.
   */
  fetch(key: string, load: () => Promise<V>): Promise<V>;
  /** The cached value of `key` without loading it; undefined when absent, aged out or not live. */
  cached(key: string): V | undefined;
  /** Drops every entry now; lookups already under way will not store what they read. */
  forget(): void;
}

/** Creates the cache and subscribes it to `options.topic`. */
export function createInvalidatedCache<V>(options: InvalidatedCacheOptions<V>): InvalidatedCache<V> {
  const { bus, lifetime, keeps } = options;
  // Boxed: lru-cache holds no null values, and the schema cache remembers "nothing synced here".
  const entries = new LRUCache<string, { value: V }>({
    max: options.maxEntries,
    ...(lifetime
      ? {
          ttl: lifetime.ms,
          perf: { now: () => lifetime.clock().getTime() },
          // Read the clock at every check (the default debounces it on a timer): a test moves it.
          ttlResolution: 0,
        }
      : {}),
  });
  // Bumped on every forget: a lookup that started before it must not refill the cache after it.
  let generation = 0;
  const forget = () => {
    generation += 1;
    entries.clear();
  };
  // The bus also calls this when it loses its notifications and again when they are back.
  bus.subscribe(options.topic, forget);
  return {
    async fetch(key, load) {
      // Not while the bus is down: a change made meanwhile would go unheard.
      if (!bus.isLive()) return load();
      const hit = entries.get(key);
      if (hit) return hit.value;
      const startedAt = generation;
      const value = await load();
      if (startedAt === generation && (!keeps || keeps(value))) entries.set(key, { value });
      return value;
    },
    cached: (key) => (bus.isLive() ? entries.get(key)?.value : undefined),
    forget,
  };
}
