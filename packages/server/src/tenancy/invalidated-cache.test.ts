import { describe, expect, it } from 'vitest';
import { createInvalidatedCache, type InvalidatedCacheOptions } from './invalidated-cache.js';
import type { InvalidationTopic } from './invalidation.js';

/**
 * The two things the cache needs of a bus, in process, with a liveness the test sets: the real bus
 * is only ever not live on PostgreSQL after its LISTEN connection dies (invalidation-reconnect.test.ts).
 * Like the real one, it tells every subscriber to forget when it goes down and when it comes back,
 * unless told not to (to show that a cache also refuses what it held before).
 */
function localBus() {
  const handlers = new Map<InvalidationTopic, Array<(key: string | null) => void>>();
  let live = true;
  return {
    subscribe(topic: InvalidationTopic, handler: (key: string | null) => void) {
      handlers.set(topic, [...(handlers.get(topic) ?? []), handler]);
    },
    isLive: () => live,
    announce(topic: InvalidationTopic, key: string | null = null) {
      for (const handler of handlers.get(topic) ?? []) handler(key);
    },
    setLive(value: boolean, { forgetting = true } = {}) {
      live = value;
      if (forgetting) for (const handler of [...handlers.values()].flat()) handler(null);
    },
  };
}

/** A cache of strings whose loads are counted per key: `value(key)` answers `key@<load number>`. */
function countedCache(options: Partial<InvalidatedCacheOptions<string | null>> = {}) {
  const bus = localBus();
  const cache = createInvalidatedCache<string | null>({ bus, topic: 'targets', maxEntries: 100, ...options });
  const loads = new Map<string, number>();
  const value = (key: string) =>
    cache.fetch(key, async () => {
      const count = (loads.get(key) ?? 0) + 1;
      loads.set(key, count);
      return `${key}@${count}`;
    });
  return { bus, cache, value };
}

/** A promise the test settles when it chooses: a lookup still in flight. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('an invalidated cache', () => {
  it('loads a key once and serves it from then on, each key on its own', async () => {
    const { value } = countedCache();
    expect(await value('a')).toBe('a@1');
    expect(await value('a')).toBe('a@1');
    expect(await value('b')).toBe('b@1');
  });

  it('drops every entry on an invalidation of its topic, whatever the key, and not on another topic', async () => {
    const { bus, value } = countedCache();
    await value('a');
    await value('b');
    bus.announce('schema');
    bus.announce('api-keys', 'a');
    expect(await value('a')).toBe('a@1');
    bus.announce('targets', 'b');
    expect(await value('a')).toBe('a@2');
    expect(await value('b')).toBe('b@2');
  });

  it('does not keep what a lookup read when a forget came while it was reading', async () => {
    const bus = localBus();
    const cache = createInvalidatedCache<string>({ bus, topic: 'targets', maxEntries: 10 });
    const before = deferred<string>();
    const racing = cache.fetch('project', () => before.promise);
    // The change commits and its invalidation arrives while the lookup still waits on the database.
    bus.announce('targets');
    before.resolve('old row');
    expect(await racing).toBe('old row');
    expect(cache.cached('project')).toBeUndefined();
    // A lookup that starts after the forget keeps what it reads.
    expect(await cache.fetch('project', async () => 'new row')).toBe('new row');
    expect(await cache.fetch('project', async () => 'not read')).toBe('new row');
  });

  it('does not keep a read that began before the bus went down, nor serve or keep anything until it is back', async () => {
    const { bus, cache, value } = countedCache();
    const during = deferred<string>();
    const racing = cache.fetch('a', () => during.promise);
    bus.setLive(false);
    during.resolve('read before the loss');
    await racing;
    expect(await value('a')).toBe('a@1');
    expect(await value('a')).toBe('a@2');
    expect(cache.cached('a')).toBeUndefined();
    bus.setLive(true);
    expect(await value('a')).toBe('a@3');
    expect(await value('a')).toBe('a@3');
    expect(cache.cached('a')).toBe('a@3');
  });

  it('does not serve an entry it holds while the bus is not live', async () => {
    const { bus, cache, value } = countedCache();
    await value('a');
    bus.setLive(false, { forgetting: false });
    expect(cache.cached('a')).toBeUndefined();
    expect(await value('a')).toBe('a@2');
    bus.setLive(true, { forgetting: false });
    expect(await value('a')).toBe('a@1');
  });

  it('serves an entry for its lifetime on the injected clock, then reads it again', async () => {
    let now = Date.parse('2030-01-01T00:00:00.000Z');
    const { value } = countedCache({ lifetime: { ms: 60_000, clock: () => new Date(now) } });
    expect(await value('a')).toBe('a@1');
    now += 59_999;
    expect(await value('a')).toBe('a@1');
    now += 2;
    expect(await value('a')).toBe('a@2');
    expect(await value('a')).toBe('a@2');
  });

  it('holds at most maxEntries, evicting the least recently used one only', async () => {
    const { cache, value } = countedCache({ maxEntries: 2 });
    await value('a');
    await value('b');
    await value('a');
    await value('c');
    expect(cache.cached('b')).toBeUndefined();
    expect(cache.cached('a')).toBe('a@1');
    expect(cache.cached('c')).toBe('c@1');
    expect(await value('b')).toBe('b@2');
  });

  it('keeps null unless told to keep hits only', async () => {
    const bus = localBus();
    let reads = 0;
    const miss = async () => {
      reads += 1;
      return null;
    };
    const everything = createInvalidatedCache<string | null>({ bus, topic: 'schema', maxEntries: 10 });
    expect(await everything.fetch('nothing synced', miss)).toBeNull();
    expect(await everything.fetch('nothing synced', miss)).toBeNull();
    expect(reads).toBe(1);
    expect(everything.cached('nothing synced')).toBeNull();

    const hitsOnly = createInvalidatedCache<string | null>({
      bus,
      topic: 'targets',
      maxEntries: 10,
      keeps: (row) => row !== null,
    });
    await hitsOnly.fetch('unknown', miss);
    await hitsOnly.fetch('unknown', miss);
    expect(reads).toBe(3);
    expect(hitsOnly.cached('unknown')).toBeUndefined();
    expect(await hitsOnly.fetch('known', async () => 'row')).toBe('row');
    expect(await hitsOnly.fetch('known', async () => 'not read')).toBe('row');
  });
});
