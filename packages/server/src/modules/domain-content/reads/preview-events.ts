/**
 * The live preview's change stream for server-rendered sites (docs/live-preview.md "Server-rendered
 * sites"): one subscription to the content notifications every process already hears (`content:<environment
 * id>` on the invalidation bus, storage/content-changes.ts) fans out to the open preview streams of that
 * environment; each stream then reads its document's draft revision and reports it when it moved.
 */
import type { InvalidationBus, InvalidationTopic } from '../../../tenancy/invalidation.js';

/** Called when something under the watched key may have changed: with the key, or null for anything of the topic. */
type ChangeListener = (key: string | null) => void;

/**
 * Open event streams, by the key of one bus topic: the preview's by environment id (`content`), the
 * document streams' by document id (`presence`, collaboration/document-events.service.ts).
 */
export interface EventsHub {
  /** Calls `listener` after each change under `key` (and after each of the whole topic); returns the way to stop. */
  watch(key: string, listener: ChangeListener): () => void;
  /** Calls `end` of every open stream when the server begins to close; returns the way to stop. */
  onClose(end: () => void): () => void;
  /** Ends every open stream (graceful close). */
  closeAll(): void;
}

/** The live preview's hub: content changes, by environment id. */
export type PreviewEventsHub = EventsHub;

/** The live preview's hub on content changes. */
export function createPreviewEventsHub(bus: InvalidationBus): PreviewEventsHub {
  return createEventsHub(bus, 'content');
}

/** Creates a hub on one bus topic; it subscribes to the bus once, when the first stream opens. */
export function createEventsHub(bus: InvalidationBus, topic: InvalidationTopic): EventsHub {
  const listeners = new Map<string, Set<ChangeListener>>();
  let subscribed = false;
  const enders = new Set<() => void>();
  const notify = (key: string | null) => {
    const groups = key === null ? [...listeners.values()] : [listeners.get(key)].filter((set) => set !== undefined);
    for (const group of groups) for (const listener of group) listener(key);
  };
  return {
    watch(key, listener) {
      if (!subscribed) {
        bus.subscribe(topic, notify);
        subscribed = true;
      }
      const group = listeners.get(key) ?? new Set();
      group.add(listener);
      listeners.set(key, group);
      return () => {
        group.delete(listener);
        if (group.size === 0) listeners.delete(key);
      };
    },
    onClose(end) {
      enders.add(end);
      return () => enders.delete(end);
    },
    closeAll() {
      for (const end of [...enders]) end();
    },
  };
}
