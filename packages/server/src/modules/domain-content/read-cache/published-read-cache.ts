/**
 * The published read cache of this process (docs/performance.md "Published read cache"): answers
 * of published content reads, as the exact bytes sent, bounded by a byte budget with LRU eviction.
 *
 * Freshness: every entry carries the `stamp` taken before its read started. Each change announced
 * for an environment (migration 0015: in this process before the write returns, in others through
 * LISTEN/NOTIFY) moves that environment's generation to a new stamp; an entry older than its
 * environment's generation is never served, and an answer whose read began before a change is never
 * stored. While invalidations cannot reach this process (`bus.isLive()` false) nothing is served
 * or stored.
 */
import { LRUCache } from 'lru-cache';
import type { AnyAction } from '../../../actions/define-action.js';
import type { InvalidationBus } from '../../../tenancy/invalidation.js';

/** One cached answer: the body bytes and their strong ETag. */
export interface CachedAnswer {
  body: Buffer;
  etag: string;
  /**
   * The body compressed with Brotli and with gzip, made once when the answer is stored, so an answer
   * from the cache costs no compression; null for a body too small to be worth it.
   */
  encoded?: { br: Buffer; gzip: Buffer } | null;
  /** The permissions of the route that answered it: a caller answered from memory must hold them. */
  access: Pick<AnyAction, 'permissions' | 'anyPermissions'>;
  /** The URL as the request log line shows it (http/log-url.ts), worked out once when stored. */
  logUrl: string;
}

interface Entry extends CachedAnswer {
  environmentId: string;
  stamp: number;
}

/**
 * The longest an entry is served: a last safety net for an announcement that never arrives. A process
 * that dies between COMMIT and its NOTIFY leaves the announcement written (migration 0017) and another
 * process sends it within about 2 s (storage/content-announcer.ts); this covers what records none (a
 * server older than 0017 during a rolling upgrade).
 */
export const ENTRY_LIFETIME_MS = 5 * 60_000;

/** Fixed cost counted per entry besides its body and key (object, map node, strings). */
const ENTRY_OVERHEAD_BYTES = 256;

export interface PublishedReadCache {
  /** The stamp a read takes before it starts; pass it back to `store`. */
  stamp(): number;
  /** The fresh answer under `key`, or undefined (absent, outdated, or invalidations not live). */
  get(environmentId: string, key: string): CachedAnswer | undefined;
  /** Keeps `answer` unless the environment changed since `stamp` was taken (or the budget is 0). */
  store(environmentId: string, key: string, stamp: number, answer: CachedAnswer): void;
  /** Whether entries may be served and stored now. */
  usable(): boolean;
  /** Bytes held now (bodies, keys and per-entry overhead). */
  size(): number;
  /** Entries held now. */
  count(): number;
}

/**
 * Creates the cache, listening to the bus's `content` topic (a key: one environment changed; none:
 * every environment) and `schema` topic (a schema sync may change resolved reads of overlays).
 */
export function createPublishedReadCache(options: { bus: InvalidationBus; maxBytes: number }): PublishedReadCache {
  const { bus, maxBytes } = options;
  const entries =
    maxBytes > 0
      ? new LRUCache<string, Entry>({
          maxSize: maxBytes,
          ttl: ENTRY_LIFETIME_MS,
          sizeCalculation: (entry, key) =>
            entry.body.byteLength +
            (entry.encoded ? entry.encoded.br.byteLength + entry.encoded.gzip.byteLength : 0) +
            key.length * 2 +
            ENTRY_OVERHEAD_BYTES,
        })
      : null;
  let clock = 0;
  /** The stamp of the last change of each environment, and of the last change of every one. */
  const generations = new Map<string, number>();
  let everything = 0;

  const generationOf = (environmentId: string) => Math.max(generations.get(environmentId) ?? 0, everything);

  const invalidate = (environmentId: string | null) => {
    clock += 1;
    if (environmentId === null) {
      everything = clock;
      generations.clear();
      entries?.clear();
    } else {
      generations.set(environmentId, clock);
    }
  };
  bus.subscribe('content', invalidate);
  bus.subscribe('schema', () => invalidate(null));

  const usable = () => entries !== null && bus.isLive();

  return {
    stamp: () => clock,
    usable,
    get(environmentId, key) {
      if (!usable()) return undefined;
      const entry = entries?.get(key);
      if (!entry) return undefined;
      if (entry.environmentId !== environmentId || entry.stamp < generationOf(environmentId)) {
        entries?.delete(key);
        return undefined;
      }
      return entry;
    },
    store(environmentId, key, stamp, answer) {
      if (!usable() || stamp < generationOf(environmentId)) return;
      entries?.set(key, { ...answer, environmentId, stamp });
    },
    size: () => entries?.calculatedSize ?? 0,
    count: () => entries?.size ?? 0,
  };
}
